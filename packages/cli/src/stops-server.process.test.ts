// However the CLI ends (its stdout closed under it, piped into head, a signal), the stdio server it started is
// stopped before it exits: nothing is left behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, test } from 'vitest';
import { ChildProcessSet } from '@wiremcp/process';
import { WIREMCP } from './cli.test-util.js';

const ENV_SERVER = fileURLToPath(new URL('../test/fixtures/env-server.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'wiremcp-cli-stops-'));
const children = new ChildProcessSet();
const leftovers: number[] = [];
let count = 0;

afterEach(() => {
  children.killAll();
  for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** How long the CLI gets to end by itself once its way out happened (a deadline, not a timing). */
const DEADLINE_MS = 15_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server's pid, as it wrote it at start (once it exists). */
function serverPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (Number.isInteger(pid) && pid > 0) leftovers.push(pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly killedAfterDeadline: boolean;
  /** The server still ran when the CLI's exit was seen. */
  readonly serverAlive: boolean;
}

function ended(child: ReturnType<typeof spawn>, pidFile: string): Promise<Ended> {
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const pid = serverPid(pidFile);
      resolve({ code, signal, killedAfterDeadline: killed, serverAlive: pid === undefined ? false : alive(pid) });
    });
  });
}

function pidFile(): string {
  count += 1;
  return join(scratch, `server-${count}.pid`);
}

test('stdout closed under the CLI: it stops the server and exits quietly (141), no EPIPE stack', async () => {
  const file = pidFile();
  const child = children.add(spawn(process.execPath, [WIREMCP, 'trace', '-e', `PID_FILE=${file}`, 'node', ENV_SERVER]));
  child.stdout.destroy();
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const result = await ended(child, file);
  expect(serverPid(file)).toBeDefined();
  expect(result).toEqual({ code: 141, signal: null, killedAfterDeadline: false, serverAlive: false });
  expect(err).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
});

test('wiremcp trace … 2>&1 | head -n 1: the CLI and its server both end', async () => {
  const file = pidFile();
  const command = `"${process.execPath}" "${WIREMCP}" trace -e "PID_FILE=${file}" node "${ENV_SERVER}" 2>&1 | head -n 1`;
  const shell = children.add(spawn('sh', ['-c', command]));
  let out = '';
  shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const result = await ended(shell, file);
  expect(result.killedAfterDeadline).toBe(false);
  expect(out.split('\n').filter(Boolean)).toHaveLength(1);
  // The shell ends when the pipeline does, that is once the CLI (which stops its server first) has exited.
  expect(result.serverAlive).toBe(false);
});

test.each(['SIGTERM', 'SIGINT'] as const)('%s while a call waits: the CLI stops the server, then exits 128 + n', async (signal) => {
  const file = pidFile();
  const child = children.add(spawn(process.execPath, [WIREMCP, 'call', '-e', `PID_FILE=${file}`, 'wait', 'node', ENV_SERVER]));
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  // The server is up once its pid is written and the CLI has connected: wait for the tool call to be under way.
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (serverPid(file) === undefined) return;
      clearInterval(poll);
      resolve();
    }, 50);
    child.once('exit', () => {
      clearInterval(poll);
      reject(new Error(`the CLI exited first: ${err}`));
    });
  });
  child.kill(signal);
  const result = await ended(child, file);
  expect(result).toEqual({ code: signal === 'SIGTERM' ? 143 : 130, signal: null, killedAfterDeadline: false, serverAlive: false });
});
