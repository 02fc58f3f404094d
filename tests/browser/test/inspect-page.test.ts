/**
 * `wiremcp inspect` in Chromium: the real command (built bin) against the everything server, over stdio (era
 * detected: 2026-07-28) and over HTTP (2025-11-25 sessions). Through the page a user lists and calls tools with the
 * generated forms (a schema violation refused with the validator's message), answers an elicitation, subscribes to
 * a resource and sees it update, and reads, filters and downloads the wire view. A foreign page, and requests
 * without the token or with a foreign Host or Origin, are refused. Screenshots go to `tests/browser/artifacts/`.
 */
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EVERYTHING, startHttpServer, type ServerProcess } from '../../auth/test/server-process.js';
import { ARTIFACTS, callTool, useInspectorBrowser } from './inspector-browser.js';

const suite = useInspectorBrowser({ builds: [EVERYTHING] });
let httpServer: ServerProcess | undefined;
beforeAll(async () => {
  httpServer = await startHttpServer(EVERYTHING, []);
}, 60_000);

/** A raw request to the inspector from Node (so that Host and Origin can be anything). */
function raw(origin: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each([
  { name: 'stdio, era detected', args: () => ['node', EVERYTHING.script], era: 'modern', protocolVersion: '2026-07-28' },
  { name: 'HTTP, 2025-11-25 session', args: () => ['--era', 'legacy', httpServer!.url], era: 'legacy', protocolVersion: '2025-11-25' },
])('wiremcp inspect in Chromium ($name)', ({ name, args, era, protocolVersion }) => {
  const shot = (page: Page, screen: string) => page.screenshot({ path: `${ARTIFACTS}inspect-${era}-${screen}.png`, fullPage: true });

  test('tools through the form, an elicitation, a live subscription, the wire view', { timeout: 120_000 }, async () => {
    const inspector = await suite.inspect(args());
    const page = await suite.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(inspector.url);
      await expect.poll(() => page.locator('header').textContent()).toContain(`era ${era} · ${protocolVersion}`);
      await expect.poll(() => page.getByLabel('Server capabilities').textContent()).toContain('"subscribe": true');
      await shot(page, 'server');

      // A tool with no arguments, then a schema violation refused with the validator's message.
      await callTool(page, 'test_simple_text');
      const result = page.getByRole('region', { name: 'Tool result' });
      await result.getByText('This is a simple text response for testing.').waitFor();
      await callTool(page, 'slow_compute', { seconds: '99999' });
      await page.getByRole('alert').filter({ hasText: 'do not match the input schema' }).waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/seconds.*must be <=/);
      await shot(page, 'tools');

      // An elicitation answered in the page while the tool call waits.
      await callTool(page, 'test_elicitation', { message: 'Who is there?' });
      const asks = page.getByRole('region', { name: 'Requests from the server' });
      await asks.getByText('Who is there?').waitFor();
      await shot(page, 'elicitation');
      await asks.getByLabel('username').fill('ada');
      await asks.getByLabel('email').fill('ada@example.com');
      await asks.getByRole('button', { name: 'Accept' }).click();
      await result.getByText(/User response: .*accept.*ada@example\.com/).waitFor();
      // The card goes once the page hears the answer on its event stream (the tool's result may be shown first).
      await asks.waitFor({ state: 'hidden' });

      // A subscription: the resource shown is read again when the server says it changed.
      await page.getByRole('tab', { name: 'Resources' }).click();
      await page.getByRole('button', { name: /^test:\/\/watched-resource|^watched-resource/ }).click();
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
      await callTool(page, 'test_update_watched_resource');
      await result.waitFor();
      await page.getByRole('tab', { name: 'Resources' }).click();
      await page.getByText('Updated 1 time since subscribing').waitFor();
      await shot(page, 'resources');

      // The wire view: filled, filterable, downloadable.
      await page.getByRole('tab', { name: /^Wire/ }).click();
      const rows = page.locator('.wire-table tbody tr:not(.details)');
      await expect.poll(() => rows.count()).toBeGreaterThan(10);
      await page.getByLabel('Filter').fill('tools/call');
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
      await page.getByLabel('Filter').fill('');
      await shot(page, 'wire');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download trace' }).click()]);
      const trace = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { entries: Record<string, unknown>[] };
      const calls = trace.entries.filter((entry) => entry.method === 'tools/call');
      expect(calls.length).toBeGreaterThanOrEqual(3); // the invalid call never left the inspector
      const answered = trace.entries.filter((entry) => entry.latencyMs !== undefined);
      expect(answered.length).toBeGreaterThan(5);
      // A 2025-11-25 server sends elicitation/create as a request; a 2026-07-28 one puts it in the call's inputRequests.
      const elicit = trace.entries.find((entry) => entry.dir === 'in' && String(entry.body).includes('"elicitation/create"'));
      expect(elicit).toBeDefined();
      if (name.startsWith('HTTP')) {
        const posts = trace.entries.filter((entry) => entry.kind === 'http-request');
        expect(posts.length).toBeGreaterThan(5);
        expect(posts.some((entry) => typeof (entry.headers as Record<string, string>)['mcp-session-id'] === 'string')).toBe(true);
        const events = trace.entries.filter((entry) => entry.kind === 'sse');
        expect(events.some((entry) => entry.method === 'elicitation/create')).toBe(true);
        expect(events.some((entry) => (entry.sse as { id: string }).id !== '')).toBe(true);
        expect(await page.locator('.wire-table').textContent()).toContain('mcp-protocol-version: 2025-11-25');
      } else {
        expect(trace.entries.every((entry) => entry.kind === 'message')).toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      expect(await inspector.stop()).toBe(143); // stopped by SIGTERM, as every wiremcp command
    }
  });
});

describe('the inspector refuses what is not its own page', () => {
  let foreign: Server | undefined;
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        foreign?.closeAllConnections();
        return foreign ? foreign.close(() => resolve()) : resolve();
      }),
  );

  test('no token, a wrong token, a foreign Host or Origin, and a foreign page', { timeout: 60_000 }, async () => {
    const inspector = await suite.inspect(['node', EVERYTHING.script]);
    const { origin, token } = inspector;
    const host = new URL(origin).host;
    const json = { 'content-type': 'application/json', 'x-wiremcp-inspector-token': token };
    const tools = JSON.stringify({ op: 'tools' });

    expect((await raw(origin, '/', { host })).status).toBe(403);
    expect((await raw(origin, `/?token=${token}x`, { host })).status).toBe(403);
    expect((await raw(origin, `/?token=${token}`, { host })).status).toBe(200);
    expect((await raw(origin, `/?token=${token}`, { host: `rebound.example:${new URL(origin).port}` })).status).toBe(421);
    expect((await raw(origin, '/api/rpc', { ...json, host, 'x-wiremcp-inspector-token': 'x'.repeat(43) }, tools)).status).toBe(403);
    expect((await raw(origin, '/api/rpc', { ...json, host, origin: 'http://127.0.0.1:1' }, tools)).status).toBe(403);
    expect((await raw(origin, '/api/rpc', { ...json, host, origin: 'null' }, tools)).status).toBe(403);
    expect((await raw(origin, '/api/rpc', { ...json, host, 'content-type': 'text/plain' }, tools)).status).toBe(415);
    expect((await raw(origin, '/api/rpc', { ...json, host }, JSON.stringify({ op: 'connect', params: { url: 'http://x' } }))).status).toBe(
      404,
    );
    const big = await raw(origin, '/api/rpc', { ...json, host }, `{"op":"tools","pad":"${'a'.repeat(2 * 1024 * 1024)}"}`);
    expect(big.status).toBe(413);
    expect(big.text.length).toBeLessThan(200);
    const listed = await raw(origin, '/api/rpc', { ...json, host }, tools);
    expect(listed.status).toBe(200);
    const wireCount = async (): Promise<number> =>
      (
        JSON.parse((await raw(origin, '/api/rpc', { ...json, host }, JSON.stringify({ op: 'wire' }))).text) as {
          result: { entries: unknown[] };
        }
      ).result.entries.length;
    const before = await wireCount();

    // A page on another loopback origin that knows the token still gets nothing done.
    foreign = createServer((_req, res) => res.end('<!doctype html><title>foreign</title>'));
    await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
    const page = await suite.newPage();
    try {
      await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
      const outcome = await page.evaluate(
        async ([target, secret]) => {
          const cors = await fetch(`${target}/api/rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-wiremcp-inspector-token': secret },
            body: JSON.stringify({ op: 'call', params: { name: 'test_update_watched_resource', arguments: {} } }),
          }).then(
            (response) => `answered ${response.status}`,
            (error: Error) => `refused: ${error.name}`,
          );
          const simple = await fetch(`${target}/api/rpc`, { method: 'POST', mode: 'no-cors', body: JSON.stringify({ op: 'tools' }) }).then(
            (response) => response.type,
            (error: Error) => `refused: ${error.name}`,
          );
          const read = await fetch(`${target}/?token=${secret}`).then(
            (response) => `answered ${response.status}`,
            (error: Error) => `refused: ${error.name}`,
          );
          return { cors, simple, read };
        },
        [origin, token] as const,
      );
      // The CORS request fails its preflight; the no-cors one is answered 403 (foreign Origin) and its response is
      // withheld from the page by Cross-Origin-Resource-Policy; the page itself is not readable cross-origin.
      expect(outcome).toEqual({ cors: 'refused: TypeError', simple: 'refused: TypeError', read: 'refused: TypeError' });
    } finally {
      await page.close();
    }
    expect(await wireCount()).toBe(before);
    expect(await inspector.stop()).toBe(143); // stopped by SIGTERM, as every wiremcp command
  });
});
