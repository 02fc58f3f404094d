/**
 * What every Chromium test of `wiremcp inspect` sets up and tears down: the built bins it needs checked, the
 * artefacts directory made, one browser launched for the file, and at the file's end — also when a test failed —
 * the browser closed, every inspector started through `inspect()` stopped, what the file added with `cleanup()` run
 * (last added first), and the server processes of `tests/auth/test/server-process.ts` stopped. Also the page steps
 * these files share: finding a tool's button and calling a tool through the generated form.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { assertBuilt, stopAllServers } from '../../auth/test/server-process.js';
import { launchChromium, type Browser } from './chromium.js';
import { startInspect, WIREMCP_BIN, type InspectProcess } from './inspect-process.js';

/** Where screenshots go (git-ignored; CI keeps the directory as the run's artefacts); ends with a slash. */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** The browser of a test file and what it started; see {@link useInspectorBrowser}. */
export interface InspectorBrowser {
  /** The file's browser; throws when read before the file's `beforeAll` launched it. */
  readonly browser: Browser;
  /** A new page in the browser's context. */
  newPage(): Promise<Page>;
  /** Starts `wiremcp [rootArgs] inspect <args>` (see `startInspect`); it is stopped at the file's end. */
  inspect(args: readonly string[], rootArgs?: readonly string[]): Promise<InspectProcess>;
  /** Runs `stop` at the file's end, after the browser and the inspectors; last added first; a failure is ignored. */
  cleanup(stop: () => unknown): void;
}

/**
 * Adds the file's `beforeAll` and `afterAll` hooks (call it at the top level of a test file). The built `wiremcp`
 * bin is always required, `builds` lists the other built bins the file starts (a missing one fails the file, naming
 * the build to run). A first run installs Chromium with apt-get, hence the long set-up bound.
 */
export function useInspectorBrowser(options: { readonly builds?: ReadonlyArray<{ readonly dist: string }> } = {}): InspectorBrowser {
  let browser: Browser | undefined;
  const inspectors: InspectProcess[] = [];
  const stops: Array<() => unknown> = [];
  beforeAll(async () => {
    for (const bin of [{ dist: WIREMCP_BIN }, ...(options.builds ?? [])]) assertBuilt(bin);
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(inspectors.map((inspector) => inspector.stop()));
    for (const stop of stops.splice(0).reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => undefined);
    await stopAllServers();
  });
  const launched = (): Browser => {
    if (browser === undefined) throw new Error('the browser is launched in beforeAll: use it inside a test');
    return browser;
  };
  return {
    get browser() {
      return launched();
    },
    newPage: () => launched().context.newPage(),
    async inspect(args, rootArgs = []) {
      const inspector = await startInspect(args, rootArgs);
      inspectors.push(inspector);
      return inspector;
    },
    cleanup: (stop) => void stops.push(stop),
  };
}

/** The button of tool `name` in the Tools tab (its label is the name, then ` — ` and the title when there is one). */
export function toolButton(page: Page, name: string): ReturnType<Page['getByRole']> {
  return page.getByRole('button', { name: new RegExp(`^${name}( —|$)`) });
}

/** Opens the Tools tab, picks tool `name`, fills the form's fields by label (`fill`) and presses "Call tool". */
export async function callTool(page: Page, name: string, fill: Readonly<Record<string, string>> = {}): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await toolButton(page, name).click();
  for (const [label, value] of Object.entries(fill)) await page.getByLabel(new RegExp(`^${label}\\b`)).fill(value);
  await page.getByRole('button', { name: 'Call tool' }).click();
}
