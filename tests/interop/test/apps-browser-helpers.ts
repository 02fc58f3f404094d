/**
 * Headless Chromium from Debian's packages, started as the browser tests start it (`tests/browser/test/chromium.ts`:
 * installed with apt-get when missing — we run as root — and said so on stderr; driven by playwright-core, whose own
 * browser download is not used), plus what the MCP Apps browser tests build: page scripts bundled with esbuild from
 * the official `@modelcontextprotocol/ext-apps` 2.0.4 and from our `@wiremcp/ext-apps`, and a screenshot directory
 * kept as the tests' artefacts.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromiumVersion, launchChromium, type Browser } from '../../browser/test/chromium.js';

/** Where screenshots go (git-ignored; CI keeps the directory as the run's artefacts). */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** Installs Debian's chromium when it is missing; returns why it cannot be had, or undefined when it is there. */
export function ensureChromium(): string | undefined {
  try {
    chromiumVersion();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A fresh browser (`tests/browser/test/chromium.ts`: the same binary, switches and throwaway profile as the browser
 * tests) with a 900×700 viewport; waits are for events, and their bound is generous because the machine may be busy.
 */
export function launchBrowser(): Promise<Browser> {
  return launchChromium({ viewport: { width: 900, height: 700 }, defaultTimeoutMs: 150_000 });
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
