/**
 * An `McpServer` in a browser worker: the everything server bundled from the packages' `dist` runs in a dedicated
 * module worker in Chromium, and the built client in the page reaches it through `MessagePortTransport` over a
 * `MessageChannel`. Both eras: tools, progress, a tool error, sampling answered by the page, cancellation (checked
 * on the JSON text that crossed), the close reaching the worker; and bad input on the port answered, not fatal.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, type Browser } from './chromium.js';
import { recordChromiumResults } from './runtime-results.js';
import { startPageServer, type PageServer } from './page-server.js';
import type { HostileRun, WorkerRun } from './pages/worker.js';

recordChromiumResults(import.meta.url);

let browser: Browser | undefined;
let pages: PageServer | undefined;

beforeAll(async () => {
  [browser, pages] = await Promise.all([launchChromium(), startPageServer(['worker', 'server-worker'])]);
}, 600_000); // a first run installs Chromium with apt-get (minutes)
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

type PageApi = { wiremcpWorkerPage: { run(era: string): Promise<WorkerRun>; hostile(): Promise<HostileRun> } };

/** Opens the worker page and calls `method` of its API there; uncaught page errors fail the test. */
async function inPage<M extends 'run' | 'hostile'>(method: M, arg = ''): Promise<Awaited<ReturnType<PageApi['wiremcpWorkerPage'][M]>>> {
  const page = await browser!.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(pages!.page('worker'));
    await page.waitForFunction(() => 'wiremcpWorkerPage' in globalThis);
    const result = await page.evaluate(
      ([name, value]) =>
        (globalThis as unknown as { wiremcpWorkerPage: Record<string, (arg: string) => Promise<unknown>> }).wiremcpWorkerPage[name]!(value),
      [method, arg] as const,
    );
    expect(errors).toEqual([]);
    return result as Awaited<ReturnType<PageApi['wiremcpWorkerPage'][M]>>;
  } finally {
    await page.close();
  }
}

const messages = (run: WorkerRun, dir: 'in' | 'out'): Array<Record<string, unknown>> =>
  run.wire.filter((entry) => entry.dir === dir).map((entry) => JSON.parse(entry.text) as Record<string, unknown>);

describe.each(['legacy', 'modern'] as const)('an McpServer in a worker, the client in the page (%s era)', (era) => {
  test('lists, calls, streams progress, samples through the page, cancels, closes', { timeout: 60_000 }, async () => {
    const run = await inPage('run', era);
    expect(run).toMatchObject({
      era,
      protocolVersion: era === 'legacy' ? '2025-11-25' : '2026-07-28',
      serverName: 'wiremcp-everything',
      simpleText: 'This is a simple text response for testing.',
      toolError: true,
      sampled: 'LLM response: from the page',
      cancelled: { code: 'REQUEST_CANCELLED', afterProgress: 1 },
      afterCancel: 'This is a simple text response for testing.',
      workerAfterClose: 0,
    });
    expect(run.tools).toBeGreaterThan(10);
    expect(run.progress.length).toBeGreaterThan(1);
    expect(run.progress).toEqual([...run.progress].sort((a, b) => a - b));
    // What crossed the port: progress notifications from the worker, the cancellation of the long call's id.
    expect(messages(run, 'in').filter((message) => message.method === 'notifications/progress').length).toBeGreaterThan(
      run.progress.length,
    );
    const cancel = messages(run, 'out').find((message) => message.method === 'notifications/cancelled');
    expect(cancel).toMatchObject({ params: { requestId: run.cancelled.id } });
  });
});

test('bad input on the port is answered (-32700, -32600) and the connection keeps serving', { timeout: 60_000 }, async () => {
  const run = await inPage('hostile');
  expect(run.notJson).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  expect(run.notText).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  expect(run.oversized).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(JSON.stringify(run.oversized).length).toBeLessThan(1000);
  expect(run.afterwards).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
});
