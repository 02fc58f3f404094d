/**
 * Headless Chromium from Debian's packages (`/usr/bin/chromium`, installed with apt-get when missing — we run as root —
 * and said so on stderr), driven by playwright-core (its own browser download is not used), plus what the MCP Apps
 * browser tests build: page scripts bundled with esbuild from the official `@modelcontextprotocol/ext-apps` 2.0.4
 * and from our `@wiremcp/ext-apps`, and a screenshot directory kept as the tests' artefacts.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianPackages } from '../../../scripts/debian-packages.js';

/** Where the browser is. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots go (git-ignored; CI keeps the directory as the run's artefacts). */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** Installs Debian's chromium when it is missing; returns why it cannot be had, or undefined when it is there. */
export function ensureChromium(): string | undefined {
  try {
    ensureDebianPackages(['chromium'], (line) => process.stderr.write(`[apps-browser] ${line}\n`));
    return existsSync(CHROMIUM) ? undefined : `apt-get installed chromium, but ${CHROMIUM} is missing`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A fresh browser context on a fresh profile directory; `close` removes both. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'wiremcp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 900, height: 700 },
  });
  // Waits are for events; the bound is generous because the machine running them may be busy.
  context.setDefaultTimeout(150_000);
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Bundles `source` (an ES module importing npm and workspace packages) into one browser script. */
export async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: dirname(fileURLToPath(import.meta.url)), loader: 'ts' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    conditions: ['wiremcp-source'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A script element holding `code` (a `</script` inside it is escaped). */
export function inlineScript(code: string): string {
  return `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;
}

/** The path of a screenshot artefact. */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
