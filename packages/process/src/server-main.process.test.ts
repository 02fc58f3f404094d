// runServerMain in a real process (test/fixtures/server-main.mjs, on the built package): real signals, real
// exits, real pipes. The in-process tests (run-server-main.test.ts) cover each path in detail.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { expect, test } from 'vitest';
import { FIXTURE, fixtureProcesses } from './fixture-process.test-util.js';

const children = fixtureProcesses();

function start(args: string[] = []) {
  const child: ChildProcessWithoutNullStreams = children.add(spawn(process.execPath, [FIXTURE, ...args]));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const until = (stream: 'stdout' | 'stderr', pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(stream === 'stdout' ? out : err)) return;
        child[stream].removeListener('data', check);
        resolve();
      };
      child[stream].on('data', check);
      child.once('exit', () => reject(new Error(`exited before ${String(pattern)} on ${stream}: ${err}`)));
      check();
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const send = (id: number, method: string) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method })}\n`);
  return { child, send, until, exited, out: () => out, err: () => err };
}

test('SIGTERM with a request in progress: it finishes, is answered, and the exit code is 0', async () => {
  const server = start();
  await server.until('stderr', /serving MCP on stdio/);
  server.send(1, 'hold');
  await server.until('stderr', /hold started/);
  server.child.kill('SIGTERM');
  await server.until('stderr', /SIGTERM, shutting down/);
  // Still reading: the request that lets the held one finish gets through.
  server.send(2, 'release');
  expect(await server.exited).toEqual({ code: 0, signal: null });
  const answers = server
    .out()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: number });
  expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2]);
});

test('a second SIGINT exits at once with 130', async () => {
  const server = start();
  await server.until('stderr', /serving MCP on stdio/);
  server.send(1, 'hold');
  await server.until('stderr', /hold started/);
  server.child.kill('SIGINT');
  await server.until('stderr', /SIGINT, shutting down/);
  server.child.kill('SIGINT');
  expect(await server.exited).toEqual({ code: 130, signal: null });
  expect(server.err()).toMatch(/server-main: SIGINT again, exiting now\n$/);
  expect(server.out()).toBe('');
});

test('an uncaught exception: its stack on stderr, exit code 1, nothing but protocol on stdout', async () => {
  const server = start();
  server.send(1, 'echo');
  await server.until('stdout', /"id":1/);
  server.send(2, 'throw');
  expect(await server.exited).toEqual({ code: 1, signal: null });
  expect(server.err()).toMatch(/server-main: uncaught error: Error: thrown from a timer\n {4}at /);
  expect(server.out()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
});

test('stdin EOF: exit 0; --version and a bad flag never start serving', async () => {
  const server = start(['--framing', 'ndjson']);
  server.send(1, 'echo');
  server.child.stdin.end();
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.out()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  const version = start(['--version']);
  expect(await version.exited).toEqual({ code: 0, signal: null });
  expect(version.err()).toBe('server-main 0.0.1\n');
  const bad = start(['--framing', 'xml']);
  expect(await bad.exited).toEqual({ code: 2, signal: null });
  expect(bad.err()).toBe(
    `server-main: --framing must be one of ndjson, content-length, auto, got "xml"\nRun 'server-main --help' for usage.\n`,
  );
});
