// `--health` with `--metrics`: /healthz and /readyz on the metrics listener, for a stdio server (the only place they
// can be), run inside the test process on a process double; and the usage error without a listener to serve them.
import { expect, test } from 'vitest';
import { fakeProcess, testServer } from './main-process.test-util.js';
import { runServerMain } from './run-server-main.js';

const request = (id: number, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) + '\n';

function main(argv: string[]) {
  const process = fakeProcess(argv);
  const { server, started, release } = testServer();
  const done = runServerMain({ name: 'test-server', version: '1.2.3', usage: 'A test server.\n', createServer: () => server, process });
  return { process, done, started, release };
}

test('over stdio: /healthz and /readyz answer on the metrics listener, and /readyz turns 503 draining on SIGTERM', async () => {
  const { process, done, started, release } = main(['--metrics', '127.0.0.1:0', '--health']);
  process.stdin.write(request(1, 'hold'));
  await started;
  const url = new URL(/Prometheus metrics at (\S+)/.exec(process.err())![1]!);
  const probe = async (path: string) => {
    const response = await fetch(new URL(path, url));
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as unknown };
  };
  expect(await probe('/healthz')).toEqual({ status: 200, type: 'application/json', body: { status: 'ok' } });
  expect(await probe('/readyz')).toEqual({ status: 200, type: 'application/json', body: { status: 'ok' } });
  expect((await fetch(new URL('/readyz', url), { method: 'POST' })).status).toBe(405);
  // The request in progress holds the shutdown open: the probes see the draining process.
  process.signal('SIGTERM');
  expect(await probe('/readyz')).toEqual({ status: 503, type: 'application/json', body: { status: 'unavailable', reason: 'draining' } });
  expect((await probe('/healthz')).status).toBe(200);
  release();
  expect(await done).toBe(0);
});

test('without --health the metrics listener serves no health path', async () => {
  const { process, done, started, release } = main(['--metrics', '127.0.0.1:0']);
  process.stdin.write(request(1, 'hold'));
  await started;
  const url = new URL(/Prometheus metrics at (\S+)/.exec(process.err())![1]!);
  expect((await fetch(new URL('/healthz', url))).status).toBe(404);
  expect((await fetch(new URL('/readyz', url))).status).toBe(404);
  release();
  process.stdin.end();
  expect(await done).toBe(0);
});

test('--health without --http or --metrics is a usage error naming both', async () => {
  const { process, done } = main(['--health']);
  expect(await done).toBe(2);
  expect(process.err()).toContain('--health needs --http or --metrics');
});
