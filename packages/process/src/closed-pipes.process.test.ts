// A server main whose parent went away: its stdout, its stderr, or both are closed under it. Each must end the
// process quietly (an exit, no EPIPE → uncaught error → write to stderr → EPIPE loop), over stdio and over HTTP.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { ChildProcessSet } from './child-process-set.js';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/server-main.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const children = new ChildProcessSet();

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build the package before these tests`);
});
afterEach(() => children.killAll());

/** How long a process that should exit by itself gets before the test gives up on it (a deadline, not a timing). */
const DEADLINE_MS = 10_000;

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The process did not exit by itself: the test killed it at the deadline. */
  readonly killedAfterDeadline: boolean;
}

/** Waits for `child` to exit; past the deadline it is killed and the result says so. */
function ended(child: ChildProcessWithoutNullStreams): Promise<Ended> {
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killedAfterDeadline: killed });
    });
  });
}

function start(args: string[]): ChildProcessWithoutNullStreams {
  return children.add(spawn(process.execPath, [FIXTURE, ...args]));
}

/** Resolves once the child's stderr (still open) holds `pattern`. */
function stderrShows(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<void> {
  let text = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) resolve();
    });
    child.once('exit', () => reject(new Error(`exited before ${String(pattern)}: ${text}`)));
  });
}

test('stderr closed: the start line meets EPIPE and the server exits 1 by itself, without spinning', async () => {
  const child = start([]);
  child.stderr.destroy();
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});

test('stderr closed while serving: the next log line ends the server, which still answered what it could', async () => {
  const child = start([]);
  await stderrShows(child, /serving MCP on stdio/);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"echo"}\n');
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stderr.destroy();
  // `hold` logs "hold started" on stderr: that write fails, and the server stops (its held request given the
  // shutdown's grace, then the process exits).
  child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"hold"}\n');
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
  expect(out).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
});

test('stdout closed: the first answer meets EPIPE, the reason goes to stderr, exit 1', async () => {
  const child = start([]);
  await stderrShows(child, /serving MCP on stdio/);
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  child.stdout.destroy();
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"echo"}\n');
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
  expect(err).toMatch(/server-main: connection closed: The client closed the output pipe \(EPIPE\)\n$/);
});

test('stdout and stderr closed: exit 1 by itself, stdin still open', async () => {
  const child = start([]);
  child.stdout.destroy();
  child.stderr.destroy();
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"echo"}\n');
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});

test('stdout and stderr closed, then an uncaught error: still one quiet exit', async () => {
  const child = start([]);
  child.stdout.destroy();
  child.stderr.destroy();
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"throw"}\n');
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});

test('over HTTP, stderr closed: the server shuts down and exits 1', async () => {
  const child = start(['--http', '127.0.0.1:0']);
  child.stderr.destroy();
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});
