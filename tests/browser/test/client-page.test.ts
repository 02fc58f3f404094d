/**
 * The built client in Chromium: a page bundled from the packages' `dist` talks Streamable HTTP (the browser's
 * `fetch`, CORS, SSE response streams) to the everything server in both eras. Besides what the page reports, the
 * requests the browser really sent are checked: SSE answers, the legacy `notifications/cancelled` POST, the aborted
 * 2026-07-28 POST.
 */
import type { Request as PageRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers, type ServerProcess } from '../../auth/test/server-process.js';
import { launchChromium, type Browser } from './chromium.js';
import { recordChromiumResults } from './runtime-results.js';
import { startPageServer, type PageServer } from './page-server.js';
import type { ClientRun } from './pages/client.js';

recordChromiumResults(import.meta.url);

let browser: Browser | undefined;
let pages: PageServer | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  assertBuilt(EVERYTHING);
  [browser, pages, server] = await Promise.all([launchChromium(), startPageServer(['client']), startHttpServer(EVERYTHING, [])]);
}, 600_000); // a first run installs Chromium with apt-get (minutes)
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await stopAllServers();
});

interface Seen {
  readonly url: string;
  readonly method: string;
  readonly lastEventId: string | undefined;
  readonly body: string;
  readonly contentType: string | undefined;
  readonly failure: string | undefined;
}

describe.each(['legacy', 'modern'] as const)('the client in Chromium against the everything server (%s era)', (era) => {
  test('connects, lists, calls, streams progress, hears a list change, resumes, cancels', { timeout: 90_000 }, async () => {
    const page = await browser!.context.newPage();
    const requests = new Map<PageRequest, { failure?: string; contentType?: string }>();
    page.on('request', (request) => requests.set(request, {}));
    page.on('requestfailed', (request) => Object.assign(requests.get(request) ?? {}, { failure: request.failure()?.errorText }));
    page.on('response', (response) =>
      Object.assign(requests.get(response.request()) ?? {}, { contentType: response.headers()['content-type'] }),
    );
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(pages!.page('client'));
      const run = await page.evaluate(
        ([url, which]) =>
          (globalThis as unknown as { wiremcpClientPage: { run(u: string, e: string): Promise<ClientRun> } }).wiremcpClientPage.run(
            url,
            which,
          ),
        [server!.url, era] as const,
      );
      expect(run).toMatchObject({
        era,
        protocolVersion: era === 'legacy' ? '2025-11-25' : '2026-07-28',
        serverName: 'wiremcp-everything',
        simpleText: 'This is a simple text response for testing.',
        toolError: { isError: true },
        listChanged: true,
        reconnection: 'Reconnection test completed',
        cancelled: { code: 'REQUEST_CANCELLED', afterProgress: 1 },
        afterCancel: 'This is a simple text response for testing.',
      });
      expect(run.tools).toBeGreaterThan(10);
      expect(run.progress.length).toBeGreaterThan(1);
      expect(run.progress).toEqual([...run.progress].sort((a, b) => a - b));
      expect(errors).toEqual([]);

      const seen: Seen[] = [...requests].map(([request, state]) => ({
        url: request.url(),
        method: request.method(),
        lastEventId: request.headers()['last-event-id'],
        body: request.postData() ?? '',
        contentType: state.contentType,
        failure: state.failure,
      }));
      const toServer = seen.filter((request) => request.url === server!.url);
      // Progress came on an SSE response of the call itself.
      const progressCall = toServer.find((request) => request.body.includes('"test_tool_with_progress"'));
      expect(progressCall?.contentType).toMatch(/^text\/event-stream/);
      const longCall = toServer.find((request) => request.body.includes('"test_long_running_operation"'));
      expect(longCall?.contentType).toMatch(/^text\/event-stream/);
      if (era === 'legacy') {
        // notifications/cancelled for the call's id, in its own POST, accepted.
        const id = (JSON.parse(longCall!.body) as { id: number }).id;
        const cancel = toServer.find((request) => request.body.includes('"notifications/cancelled"'));
        expect(JSON.parse(cancel!.body)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
        // test_reconnection closed its stream before answering: the answer came on a GET resuming after the last event.
        expect(toServer.some((request) => request.method === 'GET' && request.lastEventId !== undefined)).toBe(true);
      } else {
        // 2026-07-28: cancellation is the POST's stream aborted by the client.
        expect(longCall!.failure).toMatch(/ABORTED/);
      }
    } finally {
      await page.close();
    }
  });
});
