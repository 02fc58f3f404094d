// A stdio server whose handler (or a library it uses) calls console.log: over stdio the line must not reach stdout,
// where the client would read it as a broken message, but stderr, next to the server's other logs.
import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { FIXTURE, fixtureProcesses } from './fixture-process.test-util.js';

const children = fixtureProcesses();

test('over stdio, console.log, console.info and console.debug in a handler go to stderr; stdout stays protocol only', async () => {
  const child = children.add(spawn(process.execPath, [FIXTURE]));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"console","params":{"text":"a stray line"}}\n');
  child.stdin.end('{"jsonrpc":"2.0","id":2,"method":"echo","params":{"after":true}}\n');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  expect(out).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{"after":true}}\n');
  expect(err.match(/^a stray line$/gm)).toHaveLength(3);
});

test('over HTTP, stdout is not the protocol: console.log prints there as usual', async () => {
  const env = { ...process.env, SERVER_MAIN_CONSOLE: 'printed while starting' };
  const child = children.add(spawn(process.execPath, [FIXTURE, '--http', '127.0.0.1:0'], { env }));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', () => {
      if (/serving MCP on http/.test(err)) resolve();
    });
    child.once('exit', () => reject(new Error(`exited early: ${err}`)));
  });
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  expect(out).toBe('printed while starting\n');
  expect(err).not.toContain('printed while starting');
});

test('over stdio, console.log while the server is built goes to stderr too', async () => {
  const env = { ...process.env, SERVER_MAIN_CONSOLE: 'printed while starting' };
  const child = children.add(spawn(process.execPath, [FIXTURE], { env }));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  expect(out).toBe('');
  expect(err).toContain('printed while starting\n');
});
