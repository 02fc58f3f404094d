import { afterEach, expect, test } from 'vitest';
import { liveServerCount } from './child-processes.js';
import { StdioSession } from './stdio-session.js';

const sessions: StdioSession[] = [];

function start(script: string, transport: 'stdio-ndjson' | 'stdio-content-length' = 'stdio-ndjson'): StdioSession {
  const session = new StdioSession({ command: [process.execPath, '-e', script], cwd: process.cwd() }, transport);
  sessions.push(session);
  return session;
}

async function settle(session: StdioSession, kind: 'exit'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!session.log.events.some((event) => event.kind === kind)) {
    if (!(await session.log.waitBeyond(session.log.events.length, deadline))) throw new Error(`no ${kind} event`);
  }
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  expect(liveServerCount()).toBe(0);
});

test('frames become messages; stray bytes on stdout are violations; stderr is kept', async () => {
  const session = start(`
    process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\\n');
    process.stdout.write('Server started on stdio\\n');
    process.stderr.write('a log line on stderr');
  `);
  await settle(session, 'exit');
  const kinds = session.log.events.map((event) => event.kind);
  expect(kinds).toEqual(['message', 'violation', 'exit']);
  expect(session.log.events[0]).toMatchObject({ message: { id: 1, result: {} } });
  expect(session.log.events[1]).toMatchObject({ message: expect.stringContaining('not a JSON-RPC message: "Server started on stdio"') });
  expect(session.stderrTail()).toBe('a log line on stderr');
});

test('a Content-Length cell rejects NDJSON output and reads Content-Length frames', async () => {
  const good = start(
    `const b = Buffer.from('{"id":1,"result":{"t":"comió"}}'); process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n'); process.stdout.write(b);`,
    'stdio-content-length',
  );
  await settle(good, 'exit');
  expect(good.log.events[0]).toMatchObject({ kind: 'message', message: { result: { t: 'comió' } } });
  const bad = start(`process.stdout.write('{"id":1,"result":{}}\\n');`, 'stdio-content-length');
  await settle(bad, 'exit');
  expect(bad.log.events[0]).toMatchObject({ kind: 'violation', message: expect.stringContaining('not a valid content-length stream') });
});

test('messages are framed with the cell framing', async () => {
  const session = start(
    `process.stdin.on('data', (d) => { process.stderr.write(JSON.stringify(d.toString())); process.exit(0); });`,
    'stdio-content-length',
  );
  await session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  await settle(session, 'exit');
  expect(JSON.parse(session.stderrTail())).toBe('Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}');
});

test('close() stops a server that ignores stdin EOF and SIGTERM, with its child processes', async () => {
  const session = start(`
    process.on('SIGTERM', () => {});
    const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    process.stderr.write(String(child.pid));
    setInterval(() => {}, 1000);
  `);
  const deadline = Date.now() + 5000;
  while (session.stderrTail() === '' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const grandchild = Number(session.stderrTail());
  expect(grandchild).toBeGreaterThan(0);
  const started = Date.now();
  await session.close();
  expect(Date.now() - started).toBeLessThan(5000);
  expect(session.log.events.some((event) => event.kind === 'exit')).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(() => process.kill(grandchild, 0)).toThrow();
});
