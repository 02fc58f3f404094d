// A server main whose parent went away: its stdout, its stderr, or both are closed under it. Each must end the
// process quietly (an exit, no EPIPE → uncaught error → write to stderr → EPIPE loop), over stdio and over HTTP.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { expect, test } from 'vitest';
import { ended, FIXTURE, fixtureProcesses } from './fixture-process.test-util.js';

const children = fixtureProcesses();

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

test.each([
  ['an echo request: exit 1 by itself, stdin still open', 'echo'],
  ['then an uncaught error: still one quiet exit', 'throw'],
])('stdout and stderr closed, %s', async (_what, method) => {
  const child = start([]);
  child.stdout.destroy();
  child.stderr.destroy();
  child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"${method}"}\n`);
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});

test('over HTTP, stderr closed: the server shuts down and exits 1', async () => {
  const child = start(['--http', '127.0.0.1:0']);
  child.stderr.destroy();
  const result = await ended(child);
  expect(result).toEqual({ code: 1, signal: null, killedAfterDeadline: false });
});
