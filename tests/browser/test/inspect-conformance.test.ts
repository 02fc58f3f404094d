/**
 * The inspector's Conformance tab in Chromium: the real `wiremcp inspect` (built bin), its target named by a host
 * configuration (`--config mcp.json inspect <name>`), runs the checkout's conformance app against that target and
 * shows the report live. Against the official everything server (a known defect: an unknown tool is answered as an
 * `isError` result, not the JSON-RPC error -32602) the failing cells appear with their step, and the link opens the
 * wire of that step. A request from the server (its card) does not take the focus from a field the user is typing
 * in. A target that dies in the middle of a run ends the run with its cells counted as errors or failures, the page
 * says so and can run again; the inspector keeps serving. Screenshots go to `tests/browser/artifacts/`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { EVERYTHING, startHttpServer } from '../../auth/test/server-process.js';
import type { InspectProcess } from './inspect-process.js';
import { ARTIFACTS, useInspectorBrowser } from './inspector-browser.js';

const CONFORMANCE_APP = fileURLToPath(new URL('../../../apps/conformance/dist/cli.js', import.meta.url));
const requireFromCli = createRequire(fileURLToPath(new URL('../../../packages/cli/package.json', import.meta.url)));
const OFFICIAL_EVERYTHING = join(dirname(requireFromCli.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

const suite = useInspectorBrowser({ builds: [EVERYTHING, { dist: CONFORMANCE_APP }] });
let dir: string | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wiremcp-inspect-conformance-'));
  suite.cleanup(() => rmSync(dir!, { recursive: true, force: true }));
});

const counts = (page: Page) => page.getByLabel('Conformance counts');
const count = async (page: Page, status: string): Promise<number> =>
  Number(/^(\d+)/.exec((await counts(page).locator(`[data-status="${status}"]`).textContent()) ?? '')?.[1] ?? NaN);

async function runConformance(page: Page, scenarios: string): Promise<void> {
  await page.getByRole('tab', { name: 'Conformance' }).click();
  await page.getByLabel(/^Scenarios/).fill(scenarios);
  await page.getByRole('button', { name: 'Run conformance' }).click();
}

describe('the Conformance tab of wiremcp inspect', () => {
  test('a configured server: the report fills live, a failing step links to its wire', { timeout: 180_000 }, async () => {
    const config = join(dir!, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { official: { type: 'stdio', command: 'node', args: [OFFICIAL_EVERYTHING, 'stdio'] } } }),
    );
    const configured = await startConfigured(config, 'official');
    const page = await suite.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(configured.url);
      await expect.poll(() => page.locator('header').textContent()).toContain(`official (${config})`);
      await runConformance(page, 'tools-call-unknown-tool, tools-list');
      // The run is the one asked for (the server's roots/list card must not have taken the typed text).
      expect(await page.getByLabel(/^Scenarios/).inputValue()).toBe('tools-call-unknown-tool, tools-list');
      await page.getByText(/^the run finished \(exit code 1\)$/).waitFor({ timeout: 150_000 });
      expect(await count(page, 'fail')).toBeGreaterThanOrEqual(1);
      expect(await count(page, 'pass')).toBeGreaterThanOrEqual(1);
      expect(Number.isNaN(await count(page, 'not-exercised'))).toBe(false);
      expect(Number.isNaN(await count(page, 'not-applicable'))).toBe(false);
      const failed = page.locator('tr.conf-fail').first();
      expect(await failed.textContent()).toContain('tools-call-unknown-tool');
      await failed.getByRole('link', { name: 'wire of this step' }).click();
      const wire = page.locator('details[open] .conf-wire');
      await wire.waitFor();
      expect(await wire.textContent()).toContain('tools/call');
      expect(await wire.textContent()).toContain('isError');
      await page.screenshot({ path: `${ARTIFACTS}inspect-conformance.png`, fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      const code = await configured.stop();
      expect({ code, stderr: configured.stderr() }).toMatchObject({ code: 143 });
    }
  });

  test(
    'a request from the server while the user types in the Scenarios field: the text stays where it was typed',
    { timeout: 120_000 },
    async () => {
      const inspector = await suite.inspect(['node', EVERYTHING.script]);
      const page = await suite.newPage();
      const abort = new AbortController();
      let call: Promise<Response> | undefined;
      try {
        await page.goto(inspector.url);
        await expect.poll(() => page.locator('header').textContent()).toContain('connected');
        await page.getByRole('tab', { name: 'Conformance' }).click();
        const scenarios = page.getByLabel(/^Scenarios/);
        await scenarios.click();
        await page.keyboard.type('tools-');
        // A tool call made elsewhere (here through the inspector's API, as another tab would) makes the server ask.
        const api = (op: string, params: Record<string, unknown> = {}): Promise<Response> =>
          fetch(`${inspector.origin}/api/rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-wiremcp-inspector-token': inspector.token },
            body: JSON.stringify({ op, params }),
            signal: abort.signal,
          });
        expect((await api('tools')).status).toBe(200);
        call = api('call', { name: 'test_elicitation', arguments: { message: 'Who types?' } });
        const asks = page.getByRole('region', { name: 'Requests from the server' });
        await asks.getByText('Who types?').waitFor();
        await page.keyboard.type('list');
        expect(await scenarios.inputValue()).toBe('tools-list');
        expect(await scenarios.evaluate((element) => element === document.activeElement)).toBe(true);
        expect(await page.locator('#status-line').textContent()).toBe('The server asks: elicitation/create');
        await asks.getByRole('button', { name: 'Decline' }).click();
        expect((await call).status).toBe(200);
        // The card goes once the page hears the answer on its event stream (the call's HTTP answer may come first).
        await asks.waitFor({ state: 'hidden' });
        // Not typing (the focus on a tab): the next request's card takes the focus, ready to be answered.
        await page.getByRole('tab', { name: 'Conformance' }).focus();
        call = api('call', { name: 'test_elicitation', arguments: { message: 'Who is next?' } });
        await asks.getByText('Who is next?').waitFor();
        await expect.poll(() => asks.locator(':focus').count()).toBe(1);
        await asks.getByRole('button', { name: 'Decline' }).click();
        expect((await call).status).toBe(200);
        call = undefined;
        await asks.waitFor({ state: 'hidden' });
      } finally {
        await page.close();
        // A call still waiting for its answer (the test failed before answering) is given up.
        abort.abort();
        await call?.catch(() => undefined);
        expect(await inspector.stop()).toBe(143);
      }
    },
  );

  test('the target dies mid-run: the run ends, the page says so, the inspector keeps serving', { timeout: 180_000 }, async () => {
    const server = await startHttpServer(EVERYTHING, []);
    const inspector = await suite.inspect([server.url]);
    const page = await suite.newPage();
    try {
      await page.goto(inspector.url);
      await runConformance(page, 'tools/*, resources/*, prompts/*');
      // Live: cells are counted while the run goes on (the target is stopped only once one has passed).
      await expect.poll(() => count(page, 'pass'), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
      await server.stop();
      await page.getByText(/^the run finished \(exit code [13]\)$/).waitFor({ timeout: 150_000 });
      expect((await count(page, 'error')) + (await count(page, 'fail'))).toBeGreaterThanOrEqual(1);
      await page.screenshot({ path: `${ARTIFACTS}inspect-conformance-target-died.png`, fullPage: true });
      // Another run can start (it fails at once: the server is gone) and the page still answers.
      await page.getByRole('button', { name: 'Run conformance' }).and(page.locator(':enabled')).waitFor();
      await page.reload();
      await expect.poll(() => page.locator('header').textContent()).toContain(server.url);
      await page.getByRole('tab', { name: 'Conformance' }).click();
      // The finished run is still shown after a reload (the page reads the events kept by the inspector).
      await page.getByText(/^the run finished \(exit code [13]\)$/).waitFor();
    } finally {
      await page.close();
      expect(await inspector.stop()).toBe(143);
    }
  });
});

/** `wiremcp --config <file> inspect <name>`, started as a user does. */
function startConfigured(config: string, name: string): Promise<InspectProcess> {
  return suite.inspect([name], ['--config', config]);
}
