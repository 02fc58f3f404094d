/**
 * Spawns a built reference server bin over HTTP on 127.0.0.1 (port 0) and reads its endpoint from the start line on
 * stderr. Every process started is tracked; `stopAllServers()` (call it in afterEach) ends the ones still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A bin of this repository and the build output it needs. */
export function repoBin(server: string, bin: string): { script: string; dist: string } {
  return {
    script: fileURLToPath(new URL(`../../../servers/${server}/bin/${bin}.js`, import.meta.url)),
    dist: fileURLToPath(new URL(`../../../servers/${server}/dist/bin.js`, import.meta.url)),
  };
}

/** The everything server. */
export const EVERYTHING = repoBin('everything', 'wiremcp-everything');

/** The filesystem server. */
export const FILESYSTEM = repoBin('filesystem', 'wiremcp-filesystem');

/** Throws a readable error when a bin has not been built. */
export function assertBuilt(bin: { dist: string }): void {
  if (!existsSync(bin.dist)) throw new Error(`${bin.dist} is missing: run \`turbo run build\` before these tests`);
}

/** A running server process. */
export interface ServerProcess {
  /** The MCP endpoint, as printed on the start line. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

const running = new Set<ServerProcess>();

/** Stops every server still running (SIGTERM, then SIGKILL after 3 s). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

/** Starts `bin` with `--http 127.0.0.1:0` and `args`; resolves once it serves. */
export async function startHttpServer(bin: { script: string }, args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin.script, '--http', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    running.delete(server);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
  };
  const server: ServerProcess = { url: '', child, stderr: () => stderr, stop };
  running.add(server);
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${bin.script} exited with ${code} before serving:\n${stderr}`)));
  });
  return Object.assign(server, { url });
}
