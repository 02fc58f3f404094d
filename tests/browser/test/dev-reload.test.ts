/**
 * `wiremcp dev` reloading under the inspector, in Chromium: `wiremcp dev --http` serves a server being written,
 * `wiremcp inspect` is connected to it by URL (a 2025-11-25 session: the era with a log channel, which carries the
 * build errors), and the page is never reloaded. Editing the entry file adds a tool that the page shows and calls; a
 * syntax error shows in the page and in the terminal while the old server keeps answering; fixing it clears the
 * error and brings the next tool. Screenshots go to `tests/browser/artifacts/dev-*.png`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PACKAGE, serverSource } from '../../../packages/cli/src/dev.test-util.js';
import { WIREMCP_BIN } from './inspect-process.js';
import { ARTIFACTS, toolButton, useInspectorBrowser } from './inspector-browser.js';

const suite = useInspectorBrowser();

/** `wiremcp dev --http 127.0.0.1:0 <entry>`; resolves with its URL once serving, and its stderr so far on demand. */
function startDev(entry: string): Promise<{ url: string; child: ChildProcess; stderr(): string }> {
  const child = spawn(process.execPath, [WIREMCP_BIN, 'dev', '--http', '127.0.0.1:0', entry], { stdio: ['ignore', 'ignore', 'pipe'] });
  suite.cleanup(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    return new Promise((resolve) => child.once('exit', resolve));
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`wiremcp dev exited with ${String(code)} before serving:\n${stderr}`)));
  });
}

test(
  'an edit shows the new tool without a reload; a build error shows in the page and the terminal, a fix clears it',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(PACKAGE, '.dev-test-'));
    suite.cleanup(() => rmSync(dir, { recursive: true, force: true }));
    const entry = join(dir, 'server.ts');
    writeFileSync(entry, serverSource({ tools: ['first'] }));
    const dev = await startDev(entry);
    const inspector = await suite.inspect(['--era', 'legacy', dev.url]);
    const page = await suite.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    let navigations = 0;
    page.on('framenavigated', (frame) => (frame === page.mainFrame() ? (navigations += 1) : undefined));
    const shot = (screen: string) => page.screenshot({ path: `${ARTIFACTS}dev-${screen}.png`, fullPage: true });
    try {
      await page.goto(inspector.url);
      await expect.poll(() => page.locator('header').textContent()).toContain('era legacy · 2025-11-25');
      await page.getByRole('tab', { name: 'Tools' }).click();
      await toolButton(page, 'first').waitFor();
      expect(await toolButton(page, 'second').count()).toBe(0);

      // An edit on disk: the page lists the new tool by itself, and calls it.
      writeFileSync(entry, serverSource({ tools: ['first', 'second'] }));
      await toolButton(page, 'second').waitFor();
      const banner = page.getByRole('region', { name: 'Server log' }).locator('.dev-banner');
      await banner.getByText(/restarted \(3 tools\)/).waitFor();
      await toolButton(page, 'second').click();
      await page.getByRole('button', { name: 'Call tool' }).click();
      await page.getByRole('region', { name: 'Tool result' }).getByText('second', { exact: true }).waitFor();
      await shot('reloaded');

      // A syntax error: in the page (an alert with file:line:col) and in the terminal; the old server still answers.
      writeFileSync(entry, serverSource({ tools: ['first', 'second', 'third'], broken: true }));
      const alert = page.getByRole('alert').filter({ hasText: 'the build failed' });
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/server\.ts:\d+:\d+/);
      expect(dev.stderr()).toMatch(/the build failed; the running server keeps serving\n[\s\S]*server\.ts:\d+:\d+/);
      await toolButton(page, 'first').click();
      await page.getByRole('button', { name: 'Call tool' }).click();
      await page.getByRole('region', { name: 'Tool result' }).getByText('first', { exact: true }).waitFor();
      await shot('build-error');

      // Fixed: the error goes, the next tool comes.
      writeFileSync(entry, serverSource({ tools: ['first', 'second', 'third'] }));
      await toolButton(page, 'third').waitFor();
      await expect.poll(() => alert.count()).toBe(0);
      await banner.getByText(/restarted \(4 tools\)/).waitFor();
      expect(await banner.getAttribute('role')).toBe('status');
      expect(await banner.textContent()).not.toContain('the build failed');
      await shot('fixed');

      expect(navigations).toBe(1); // the first load only: nothing reloaded the page
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  },
);
