/**
 * The inspector's Tasks tab in Chromium, against the everything server: over a 2025-11-25 HTTP session (task-augmented
 * calls, `tasks/list`) and over stdio in 2026-07-28 (the tasks extension, which has no list). A task is started
 * through the form, its status changes show without a click, it is cancelled, a finished one's result is fetched;
 * when the server goes away a watched task is reported lost. Screenshots go to `tests/browser/artifacts/`.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { EVERYTHING, startHttpServer } from '../../auth/test/server-process.js';
import { ARTIFACTS, useInspectorBrowser } from './inspector-browser.js';

const suite = useInspectorBrowser({ builds: [EVERYTHING] });

const panel = (page: Page) => page.locator('#panel-tasks');
const row = (page: Page, index = 0) => page.getByRole('table', { name: 'Tasks' }).locator('tbody tr').nth(index);

async function startTask(page: Page, tool: string, fill: Record<string, string> = {}): Promise<void> {
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await panel(page).getByLabel('Tool', { exact: true }).selectOption(tool);
  for (const [label, value] of Object.entries(fill))
    await panel(page)
      .getByLabel(new RegExp(`^${label}\\b`))
      .fill(value);
  await page.getByRole('button', { name: 'Start as task' }).click();
}

describe('the Tasks tab of wiremcp inspect', () => {
  test(
    '2025-11-25 over HTTP: start, list, cancel, a live status change, a result; the server gone: lost',
    { timeout: 120_000 },
    async () => {
      const server = await startHttpServer(EVERYTHING, []);
      const inspector = await suite.inspect(['--era', 'legacy', server.url]);
      const page = await suite.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(inspector.url);
        await startTask(page, 'slow_compute', { seconds: '60' });
        await expect.poll(() => row(page).textContent()).toContain('working');
        await page.getByRole('button', { name: 'List tasks (tasks/list)' }).click();
        await expect.poll(() => page.getByRole('table', { name: 'Tasks' }).locator('tbody tr').count()).toBe(1);
        await row(page)
          .getByRole('button', { name: /^Cancel / })
          .click();
        await expect.poll(() => row(page).locator('td').nth(2).textContent()).toBe('cancelled');

        // failing_job ends by itself after about a second: the row changes without a click.
        await startTask(page, 'failing_job');
        await expect.poll(() => row(page).locator('td').nth(1).textContent()).toBe('failing_job');
        await expect.poll(() => row(page).locator('td').nth(2).textContent(), { timeout: 30_000 }).toMatch(/^(completed|failed)$/);
        await row(page)
          .getByRole('button', { name: /^Result / })
          .click();
        await panel(page)
          .getByText(/failed \(as this fixture always does\)/)
          .waitFor();
        await page.screenshot({ path: `${ARTIFACTS}inspect-tasks.png`, fullPage: true });

        // A watched task whose server stops: reported lost, with the reason.
        await startTask(page, 'slow_compute', { seconds: '60' });
        await expect.poll(() => row(page).textContent()).toContain('working');
        await server.stop();
        await expect.poll(() => row(page).locator('td').nth(2).textContent(), { timeout: 30_000 }).toBe('lost');
        expect(await row(page).locator('td').nth(3).textContent()).toMatch(/^the server stopped answering: /);
        await page.screenshot({ path: `${ARTIFACTS}inspect-tasks-lost.png`, fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        expect(await inspector.stop()).toBe(143);
      }
    },
  );

  test(
    "a task's status event that comes before the answer to the page's task-call is not undone by that answer",
    { timeout: 120_000 },
    async () => {
      const inspector = await suite.inspect(['node', EVERYTHING.script]);
      const page = await suite.newPage();
      // The answer says `working`; the task's own events may say it finished before that answer reaches the page (they
      // come on another connection). Hold the answer until the finished status is shown, so that order is tested.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const isTaskCall = (body: string | null): boolean => (JSON.parse(body ?? '{}') as { op?: string }).op === 'task-call';
      await page.route('**/api/rpc', async (route) => {
        if (!isTaskCall(route.request().postData())) return route.continue();
        const response = await route.fetch();
        await released;
        await route.fulfill({ response });
      });
      try {
        await page.goto(inspector.url);
        await expect.poll(() => page.locator('header').textContent()).toContain('2026-07-28');
        await startTask(page, 'failing_job');
        const status = row(page).locator('td').nth(2);
        await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^(completed|failed)$/);
        const finished = await status.textContent();
        const answered = page.waitForResponse(
          (response) => response.url().endsWith('/api/rpc') && isTaskCall(response.request().postData()),
        );
        release();
        await answered;
        await panel(page)
          .getByText(/failing_job runs as task /)
          .waitFor(); // the page has drawn the answer
        expect(await status.textContent()).toBe(finished);
        expect(await row(page).locator('td').nth(1).textContent()).toBe('failing_job');
      } finally {
        await page.close();
        expect(await inspector.stop()).toBe(143);
      }
    },
  );

  test('2026-07-28 over stdio: the tasks extension, a live status change; no tasks/list in this era', { timeout: 120_000 }, async () => {
    const inspector = await suite.inspect(['node', EVERYTHING.script]);
    const page = await suite.newPage();
    try {
      await page.goto(inspector.url);
      await expect.poll(() => page.locator('header').textContent()).toContain('2026-07-28');
      await startTask(page, 'failing_job');
      await expect.poll(() => row(page).locator('td').nth(2).textContent(), { timeout: 30_000 }).toMatch(/^(completed|failed)$/);
      await page.getByRole('button', { name: 'List tasks (tasks/list)' }).click();
      await panel(page).getByRole('alert').filter({ hasText: 'tasks/list' }).waitFor();
    } finally {
      await page.close();
      expect(await inspector.stop()).toBe(143);
    }
  });
});
