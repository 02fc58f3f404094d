/**
 * MCP Apps in a real browser (headless Chromium from Debian, driven by playwright-core), against the official package
 * `@modelcontextprotocol/ext-apps` 2.0.4 both ways: a view built with the official `App` runs inside our host bridge,
 * and our grammar App (the conjugation table) runs inside the official `AppBridge`. Both relay tool calls to the real
 * grammar server through our `McpClient`. Then a hostile view inside our bridge: a postMessage flood, a tool it may
 * not call, an oversized message and a fetch its CSP forbids. Screenshots are written to `tests/interop/artifacts/`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@wiremcp/client';
import { modelVisibleTools } from '@wiremcp/ext-apps';
import { appTool } from '@wiremcp/ext-apps/server';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { createGrammarServer } from '@wiremcp/server-grammar';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifact, bundle, ensureChromium, inlineScript, launchBrowser } from './apps-browser-helpers.js';

const missing = ensureChromium();
if (missing !== undefined && process.env.CI) throw new Error(missing);

const CONJUGATION_TABLE_URI = 'ui://grammar/conjugation-table';
/** Each test waits for events only; this bounds a browser starved of CPU on a shared machine. */
const SLOW = 180_000;

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
let client: McpClient;
const serverCalls: string[] = [];
let closeServer: () => Promise<void>;

beforeAll(async () => {
  if (missing !== undefined) return;
  const server = createGrammarServer(undefined, { onInternalError: () => undefined });
  // A tool only the model may call, and one only apps may call: the bridge and the model's tool list must tell them apart.
  server.registerTool(appTool({ name: 'reset_table', inputSchema: { type: 'object' } }, { visibility: ['model'] }), () => {
    serverCalls.push('reset_table');
    return { content: [{ type: 'text', text: 'reset' }] };
  });
  server.registerTool(
    appTool({ name: 'table_rows', inputSchema: { type: 'object' } }, { resourceUri: CONJUGATION_TABLE_URI, visibility: ['app'] }),
    () => ({
      content: [{ type: 'text', text: 'rows' }],
    }),
  );
  const [a, b] = createLinkedPair();
  await server.connect(b);
  client = new McpClient(
    { name: 'browser-host', version: '1.0.0' },
    {
      onError: () => undefined,
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never,
    },
  );
  await client.connect(a);
  closeServer = async () => {
    await client.close();
    await server.close();
  };
  browser = await launchBrowser();
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await closeServer?.();
});

/** A page whose functions relay to our client (the host's connection to the grammar server). */
async function hostPage(script: string): Promise<{ page: Page; problems: string[]; logs: unknown[]; heights: number[] }> {
  const page = await browser!.context.newPage();
  const problems: string[] = [];
  const logs: unknown[] = [];
  const heights: number[] = [];
  // An exception in the host's page is a failure of the test, whatever else it asserts.
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('hostLog', (params: { data?: unknown }) => logs.push(params.data));
  await page.exposeFunction('hostHeight', (height: number) => heights.push(height));
  await page.exposeFunction('hostCallTool', async (name: string, args: Record<string, unknown>) => {
    serverCalls.push(name);
    return client.callTool(name, args);
  });
  await page.exposeFunction('hostReadResource', (uri: string) => client.readResource(uri));
  await page.exposeFunction('hostListTools', () => client.listAllTools());
  await page.exposeFunction('hostProblem', (problem: string, detail: string) => problems.push(`${problem}: ${detail}`));
  await page.setContent(
    `<!DOCTYPE html><html><body style="margin:0;font-family:sans-serif"><h3 style="margin:8px">host</h3><div id="host"></div>${inlineScript(script)}</body></html>`,
  );
  return { page, problems, logs, heights };
}

const OUR_HOST = `
import { AppBridge } from '@wiremcp/ext-apps/host';
window.startBridge = async (html, resourceMeta, toolInput, limits) => {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:860px;height:300px;border:1px solid #888;margin:8px';
  document.getElementById('host').append(iframe);
  const bridge = new AppBridge({
    server: { callTool: (name, args) => window.hostCallTool(name, args), readResource: (uri) => window.hostReadResource(uri), listAllTools: () => window.hostListTools() },
    iframe, html, resourceMeta, toolInput, limits,
    hostInfo: { name: 'wiremcp-test-host', version: '1.0.0' },
    hostContext: { theme: 'light', locale: 'en-US' },
    onProblem: (problem, detail) => window.hostProblem(problem, detail),
    onLog: (params) => window.hostLog(params),
    onSizeChange: ({ height }) => { if (height !== undefined) window.hostHeight(height); },
  });
  window.bridge = bridge;
  bridge.start();
  await bridge.initialized;
};`;

const OFFICIAL_HOST = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.startOfficial = async (html, toolInput) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width:860px;height:300px;border:1px solid #888;margin:8px';
  document.getElementById('host').append(iframe);
  const bridge = new AppBridge(null, { name: 'official-app-bridge-host', version: '2.0.4' }, { serverTools: {}, serverResources: {}, logging: {} });
  bridge.oncalltool = async (params) => window.hostCallTool(params.name, params.arguments ?? {});
  bridge.onreadresource = async (params) => window.hostReadResource(params.uri);
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = Math.min(height, 2000) + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  window.officialBridge = bridge;
};`;

const OFFICIAL_VIEW = `
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
(async () => {
const show = (id, text) => { document.getElementById(id).textContent = text; };
const app = new App({ name: 'official-view', version: '2.0.4' }, {});
app.ontoolinput = (params) => show('input', JSON.stringify(params.arguments));
app.onteardown = async () => { await app.sendLog({ level: 'info', data: 'torn down' }); return {}; };
await app.connect();
show('host', app.getHostVersion()?.name ?? '?');
const result = await app.callServerTool({ name: 'conjugate', arguments: { verb: 'go', tense: 'past_simple', person: '3sg' } });
show('result', result.content[0].text + ' (' + result.structuredContent.spanish + ')');
try { await app.callServerTool({ name: 'reset_table', arguments: {} }); show('forbidden', 'allowed!'); }
catch (error) { show('forbidden', String(error.message ?? error)); }
const view = await app.readServerResource({ uri: '${CONJUGATION_TABLE_URI}' });
show('read', view.contents[0].mimeType);
})().catch((error) => { document.getElementById('error').textContent = String(error); });`;

const viewPage = (script: string, body: string): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="font-family:sans-serif">${body}${inlineScript(script)}</body></html>`;

describe.skipIf(missing !== undefined)('MCP Apps in headless Chromium', () => {
  test(
    'a view built with the official App (ext-apps 2.0.4) runs inside our bridge',
    async () => {
      const { page, problems, logs, heights } = await hostPage(await bundle(OUR_HOST));
      const view = viewPage(
        await bundle(OFFICIAL_VIEW),
        '<h1>official App</h1><p>host: <span id="host"></span></p><p>input: <span id="input"></span></p><p>conjugate: <span id="result"></span></p><p>reset_table: <span id="forbidden"></span></p><p>read: <span id="read"></span></p><p id="error"></p>',
      );
      serverCalls.length = 0;
      await page.evaluate(
        ([html, input]) => (window as never as { startBridge: (...a: unknown[]) => Promise<void> }).startBridge(html, {}, input),
        [view, { verb: 'go' }] as const,
      );
      const frame = page.frameLocator('iframe');
      await frame.locator('#read').filter({ hasText: 'text/html;profile=mcp-app' }).waitFor();
      expect(await frame.locator('#error').textContent()).toBe('');
      expect(await frame.locator('#host').textContent()).toBe('wiremcp-test-host');
      expect(await frame.locator('#input').textContent()).toBe('{"verb":"go"}');
      expect(await frame.locator('#result').textContent()).toBe('went (fue)');
      expect(await frame.locator('#forbidden').textContent()).toContain('may not be called by an app');
      expect(serverCalls).toEqual(['conjugate']);
      expect(problems).toEqual([expect.stringMatching(/^forbidden-tool: the view called 'reset_table'/)]);
      await page.screenshot({ path: artifact('official-app-in-wiremcp-bridge.png') });
      // The official App reports its size on its own; the bridge applied it to the iframe. A report may still be on its
      // way (the page applies it before this process hears of it), so the two are compared until they agree.
      expect(heights.length).toBeGreaterThan(0);
      const applied = (): Promise<string> => page.locator('iframe').evaluate((iframe: HTMLIFrameElement) => iframe.style.height);
      await expect.poll(async () => [await applied(), `${heights.at(-1)}px`]).toSatisfy(([style, reported]) => style === reported);
      await page.evaluate(() => (window as never as { bridge: { teardown(): Promise<void> } }).bridge.teardown());
      expect(logs).toEqual(['torn down']);
      expect(problems).toHaveLength(1);
      expect(await page.locator('iframe').evaluate((iframe: HTMLIFrameElement) => iframe.srcdoc)).toBe('');
      await page.close();
    },
    SLOW,
  );

  test(
    'our grammar App runs inside the official AppBridge (ext-apps 2.0.4) and fills the table through conjugate',
    async () => {
      const { page } = await hostPage(await bundle(OFFICIAL_HOST));
      const read = await client.readResource(CONJUGATION_TABLE_URI);
      const html = (read.contents[0] as { text: string }).text;
      serverCalls.length = 0;
      await page.evaluate(
        ([view, input]) => (window as never as { startOfficial: (...a: unknown[]) => Promise<void> }).startOfficial(view, input),
        [html, { verb: 'eat' }] as const,
      );
      const frame = page.frameLocator('iframe');
      await frame.locator('#status').filter({ hasText: 'eat: 15 forms' }).waitFor();
      expect(await frame.locator('#cell-past_simple-3sg').textContent()).toBe('ate (comió)');
      expect(await frame.locator('#cell-simple_future-1sg').textContent()).toBe('will eat (comeré)');
      expect(serverCalls.filter((name) => name === 'conjugate')).toHaveLength(15);
      await page.screenshot({ path: artifact('grammar-app-in-official-app-bridge.png') });
      // The user picks another verb: 15 more calls through the official bridge.
      await frame.locator('#verb').selectOption('write');
      await frame.locator('#go').click();
      await frame.locator('#status').filter({ hasText: 'write: 15 forms' }).waitFor();
      expect(await frame.locator('#cell-past_participle-2sg').textContent()).toBe('written (escrito)');
      await page.close();
    },
    SLOW,
  );

  test(
    'our grammar App inside our bridge, with the CSP it declared: no network',
    async () => {
      const { page } = await hostPage(await bundle(OUR_HOST));
      const read = await client.readResource(CONJUGATION_TABLE_URI);
      const content = read.contents[0] as { text: string; _meta?: { ui?: unknown } };
      await page.evaluate(
        ([view, meta, input]) => (window as never as { startBridge: (...a: unknown[]) => Promise<void> }).startBridge(view, meta, input),
        [content.text, content._meta?.ui ?? {}, { verb: 'see' }] as const,
      );
      const frame = page.frameLocator('iframe');
      await frame.locator('#status').filter({ hasText: 'see: 15 forms' }).waitFor();
      expect(await frame.locator('#cell-past_simple-1sg').textContent()).toBe('saw (vi)');
      expect(await page.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts');
      expect(await page.locator('iframe').evaluate((iframe: HTMLIFrameElement) => iframe.srcdoc)).toContain(
        `http-equiv="Content-Security-Policy" content="default-src 'none'`,
      );
      await page.screenshot({ path: artifact('grammar-app-in-wiremcp-bridge.png') });
      await page.close();
    },
    SLOW,
  );

  const RATE = 20;
  const BURST = 100;
  test(
    'a hostile view: a flood, a forbidden tool, an oversized message and a forbidden fetch are refused; the host keeps working',
    async () => {
      let fetched = 0;
      const target: Server = createServer((_req, res) => {
        fetched++;
        res.end('secret');
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const port = (target.address() as AddressInfo).port;
      try {
        const { page, problems } = await hostPage(await bundle(OUR_HOST));
        const hostile = `
        const show = (id, text) => { document.getElementById(id).textContent = text; };
        const answers = new Map(); let next = 1;
        window.addEventListener('message', (event) => { const m = event.data; if (m && m.id !== undefined && !m.method && answers.has(m.id)) { answers.get(m.id)(m); answers.delete(m.id); } });
        const call = (method, params) => new Promise((resolve) => { const id = next++; answers.set(id, resolve); parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*'); });
        (async () => {
          await call('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'hostile', version: '0' }, appCapabilities: {} });
          parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
          const forbidden = await call('tools/call', { name: 'reset_table', arguments: {} });
          show('forbidden', forbidden.error ? forbidden.error.message : 'allowed!');
          const big = await call('tools/call', { name: 'conjugate', arguments: { verb: 'x'.repeat(2 * 1024 * 1024) } });
          show('big', big.error ? big.error.message : 'accepted!');
          try { await fetch('http://127.0.0.1:${port}/steal'); show('fetch', 'fetched!'); } catch (error) { show('fetch', 'blocked'); }
          let answered = 0;
          const start = performance.now();
          for (let i = 0; i < 5000; i++) { const id = next++; answers.set(id, () => answered++); parent.postMessage({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'conjugate', arguments: { verb: 'go', tense: 'infinitive', person: '1sg' } } }, '*'); }
          show('flood', 'sent');
          // Then one ordinary call, sent again every 250 ms until the host answers it with a result, however late: a copy
          // beyond the budget goes unanswered and one sent while the flood's calls are in flight is refused. (An answered
          // ping would not do: the token it found may have been the last one, and the call right after it then dropped.)
          const after = await new Promise((resolve) => {
            let done = false;
            const attempt = () => call('tools/call', { name: 'conjugate', arguments: { verb: 'go', tense: 'past_simple', person: '1sg' } }).then((answer) => {
              if (done) return;
              if (!answer.result) { show('refused', answer.error ? answer.error.message : JSON.stringify(answer)); return; }
              done = true;
              clearInterval(timer);
              resolve(answer);
            });
            const timer = setInterval(attempt, 250);
            attempt();
          });
          show('answered', String(answered));
          show('elapsed', String((performance.now() - start) / 1000));
          show('after', after.result.content[0].text);
        })().catch((error) => show('after', 'error ' + error));`;
        const view = viewPage(
          hostile,
          '<p>forbidden: <span id="forbidden"></span></p><p>big: <span id="big"></span></p><p>fetch: <span id="fetch"></span></p><p>flood: <span id="flood"></span> answered <span id="answered"></span> in <span id="elapsed"></span> s</p><p>last refusal: <span id="refused"></span></p><p>after: <span id="after"></span></p>',
        );
        serverCalls.length = 0;
        await page.evaluate(
          ([html, limits]) =>
            (window as never as { startBridge: (...a: unknown[]) => Promise<void> }).startBridge(html, {}, undefined, limits),
          [view, { messagesPerSecond: RATE, burst: BURST }] as const,
        );
        const frame = page.frameLocator('iframe');
        await frame
          .locator('#after')
          .filter({ hasText: /\S/ })
          .waitFor()
          .catch(async (error: unknown) => {
            // Say how far the view got: which step never ended, what the bridge reported, what reached the server.
            const shown = await frame
              .locator('body')
              .innerText({ timeout: 5000 })
              .catch(() => '(the view could not be read)');
            const calls = serverCalls.length;
            throw new Error(
              `the view never made its call after the flood. It shows: ${shown.replace(/\s+/g, ' ')}; problems: ${problems.join(' | ')}; ${calls} server calls`,
              { cause: error },
            );
          });
        expect(await frame.locator('#forbidden').textContent()).toMatch(/tool 'reset_table' may not be called by an app/);
        expect(await frame.locator('#big').textContent()).toMatch(/message larger than 1048576 bytes/);
        expect(await frame.locator('#fetch').textContent()).toBe('blocked');
        expect(fetched).toBe(0);
        expect(await frame.locator('#after').textContent()).toBe('went');
        // Of the 5000 flooded calls, the bridge let through at most its budget over the time the flood lasted: the burst
        // and the refill (a bound that holds however slow the machine; the flood is 5000 messages, far above it).
        const budget = BURST + RATE * Number(await frame.locator('#elapsed').textContent());
        const answered = Number(await frame.locator('#answered').textContent());
        expect(answered).toBeGreaterThan(0);
        expect(answered).toBeLessThanOrEqual(budget);
        expect(serverCalls.filter((name) => name === 'conjugate').length).toBeLessThanOrEqual(budget + 1);
        expect(serverCalls).not.toContain('reset_table');
        expect(problems.map((problem) => problem.split(':')[0])).toEqual(expect.arrayContaining(['forbidden-tool', 'oversized', 'flood']));
        // The host page is unharmed.
        expect(await page.evaluate(() => document.querySelector('h3')?.textContent)).toBe('host');
        await page.screenshot({ path: artifact('hostile-view-in-wiremcp-bridge.png') });
        await page.close();
      } finally {
        await new Promise<void>((resolve) => target.close(() => resolve()));
      }
    },
    SLOW,
  );
});
