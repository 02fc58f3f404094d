/**
 * Runs the built `wiremcp` command as a separate process and plays the person at the browser: when the command prints
 * an authorization URL, the provider's headless interaction logs in and consents (`automaticUserAgent`) and the
 * redirect is delivered to the command's loopback listener. `killAllCli()` (call it in afterEach) ends runs still going.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { automaticUserAgent } from '@wiremcp/auth/client';
import { afterEach, beforeAll, expect } from 'vitest';
import { assertBuilt, EVERYTHING, stopAllServers } from './server-process.js';

/** The `wiremcp` bin of this repository and the build output it needs. */
export const WIREMCP = {
  script: fileURLToPath(new URL('../../../packages/cli/bin/wiremcp.js', import.meta.url)),
  dist: fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url)),
};

/**
 * Registers the hooks of a test file that runs the command against the everything server: both must be built; after
 * each test the runs still going are killed, the returned clean-up steps run (last first), and the servers stop.
 */
export function cliTestHooks(): Array<() => Promise<void> | void> {
  const cleanup: Array<() => Promise<void> | void> = [];
  beforeAll(() => {
    assertBuilt(EVERYTHING);
    assertBuilt(WIREMCP);
  });
  afterEach(async () => {
    killAllCli();
    for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
    await stopAllServers();
  });
  return cleanup;
}

/** A finished run of the command. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the command asked for a login (printed an authorization URL). */
  readonly loggedIn: boolean;
  /** The `redirect_uri` of the authorization URL, when it asked for a login. */
  readonly redirectUri?: string;
}

const children = new Set<ChildProcess>();

/** Kills every run still going (after a failed assertion, say). */
export function killAllCli(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/**
 * Runs the built command with `args`, completing a login when one is asked for; the PATH holds only Node's directory,
 * so the command's attempt to open a real browser finds no opener.
 */
export function runWiremcp(args: readonly string[], timeoutMs = 30_000): Promise<CliRun> {
  const child = spawn(process.execPath, [WIREMCP.script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: dirname(process.execPath) },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  let login: Promise<void> | undefined;
  let redirectUri: string | undefined;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const match = /Open this URL to authorize: (\S+)/.exec(stderr);
    if (match && login === undefined) {
      const authorization = new URL(match[1]!);
      redirectUri = authorization.searchParams.get('redirect_uri') ?? undefined;
      login = browse(authorization);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      const done = (): void => resolve({ code, stdout, stderr, loggedIn: login !== undefined, ...(redirectUri ? { redirectUri } : {}) });
      void Promise.resolve(login).then(done, reject);
    });
  });
}

/** What the person at the browser does: log in, consent, and land on the command's loopback redirect. */
async function browse(authorization: URL): Promise<void> {
  const redirectUri = authorization.searchParams.get('redirect_uri');
  const state = authorization.searchParams.get('state');
  expect(redirectUri).toMatch(/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\//);
  const callback = await automaticUserAgent().authorize(authorization, { redirectUri: redirectUri!, state: state! });
  const landing = await fetch(callback);
  expect(landing.status).toBe(200);
  await landing.text();
}

/** Every string under a key that names a token (access, refresh, id) or a secret in the token file. */
export function secretsIn(file: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string' && /token|secret/i.test(key) && !/type|expires/i.test(key) && value.length >= 16) found.push(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(JSON.parse(readFileSync(file, 'utf8')));
  return found;
}
