/**
 * Debian's Chromium driven by playwright-core: installed with apt-get when missing (playwright's own browser
 * downloads cannot be used here), launched headless with a fresh profile directory that is removed afterwards. A
 * browser that cannot be installed or started fails the test file; nothing is skipped. The one place that says how
 * the repository's browser tests start Chromium (`tests/browser`, and `tests/interop`'s MCP Apps tests).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianPackages } from '../../../scripts/debian-packages.js';

/** Where Debian's package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** The command-line switches every test browser gets: no sandbox (root in a container), no GPU, no background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The installed Chromium's version (`Chromium 156.0.…` → `156.0.…`); installs the package first when missing. */
export function chromiumVersion(): string {
  if (!existsSync(CHROMIUM)) ensureDebianPackages(['chromium'], (line) => process.stderr.write(`[browser tests] ${line}\n`));
  const result = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
  const version = /Chromium (\S+)/.exec(result.stdout ?? '')?.[1];
  if (!version) throw new Error(`${CHROMIUM} --version printed no version: ${(result.stderr ?? '').slice(-300)}`);
  return version;
}

/** A headless browser with its own throwaway profile. */
export interface Browser {
  readonly context: BrowserContext;
  readonly version: string;
  close(): Promise<void>;
}

/** Options of {@link launchChromium}. */
export interface LaunchOptions {
  /** The pages' viewport (default: playwright's, 1280×720). */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** The context's default bound for waits and actions (default: playwright's, 30 s); generous on a busy machine. */
  readonly defaultTimeoutMs?: number;
}

/** Launches Chromium (installing it when missing). */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const version = chromiumVersion();
  const profile = mkdtempSync(join(tmpdir(), 'wiremcp-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
      ...(options.viewport === undefined ? {} : { viewport: { ...options.viewport } }),
    });
    if (options.defaultTimeoutMs !== undefined) context.setDefaultTimeout(options.defaultTimeoutMs);
    return {
      context,
      version,
      async close() {
        await context.close().catch(() => undefined);
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
