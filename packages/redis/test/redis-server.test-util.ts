// A throwaway redis-server for the package's tests: on a free port, no persistence, killed afterwards. Installed
// with apt-get when missing (as the cluster script does).
import { spawn, type ChildProcess } from 'node:child_process';
import { ensureInstalled, freePort } from '../../../scripts/cluster/cluster.js';

/** A running redis-server. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a redis-server and resolves once it accepts connections. */
export async function startTestRedis(): Promise<TestRedis> {
  ensureInstalled({ redis: true, nginx: false }, (line) => process.stderr.write(`[redis test] ${line}\n`));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Ready to accept connections/.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-1000)}`)));
    child.once('error', reject);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
