/**
 * The app against servers it did not start and does not know, as a new user runs it: a `--url` server that
 * speaks both eras gets each revision on the wire that revision uses with no flags.
 * Every process a test starts is stopped by the test.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT, REPO_ROOT } from './paths.js';
import { freePort } from './session/free-port.js';
import { waitForPort } from './session/wait-for-port.js';
import { CLI, runCli, stopStarted, track } from './testing/run-cli.test-util.js';

const GRAMMAR = join(REPO_ROOT, 'servers', 'grammar', 'bin', 'wiremcp-grammar.js');
const OFFICIAL_EVERYTHING = join(PACKAGE_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const LOOPBACK = join(PACKAGE_ROOT, 'src', 'testing', 'force-loopback.cjs');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm test builds before running vitest)`);
});

afterEach(() => stopStarted());

async function startHttp(command: readonly string[]): Promise<string> {
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      command.map((arg) => arg.replace('{{port}}', String(port))),
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, PORT: String(port) },
      },
    ),
  );
  child.stderr!.resume();
  await waitForPort(port, 15_000, child);
  return `http://127.0.0.1:${port}/mcp`;
}

describe('--url finds what the server speaks', () => {
  test('a dual-era server gets 2026-07-28 stateless and the 2025 revisions on sessions, with no flags, and passes', async () => {
    const url = await startHttp([GRAMMAR, '--http', '127.0.0.1:{{port}}']);
    const { code, stdout, stderr, report } = await runCli([
      '--url',
      url,
      '--scenario',
      'response-to-unknown-id',
      '--scenario',
      'unknown-notification',
      '--scenario',
      'http-session-id-required',
      '--scenario',
      'ping',
      '--scenario',
      'discover',
    ]);
    expect(stderr).toMatch(/server\/discover/);
    const ran = report!.cells.filter((cell) => cell.status !== 'not-applicable');
    const wires = new Set(ran.map((cell) => `${cell.transport} ${cell.revision}`));
    expect([...wires].sort()).toEqual([
      'streamable-http 2025-03-26',
      'streamable-http 2025-06-18',
      'streamable-http 2025-11-25',
      'streamable-http-stateless 2026-07-28',
    ]);
    expect(
      ran.filter((cell) => cell.status !== 'pass').map((cell) => `${cell.scenario} ${cell.revision}: ${cell.failure?.message}`),
    ).toEqual([]);
    expect(stdout).toContain('0 failed');
    expect(code).toBe(0);
  }, 120_000);
});

describe('a baseline applies only when the user names it', () => {
  test("a server reporting a registry server's serverInfo gets its name suggested; its failures count", async () => {
    const { code, stderr, report } = await runCli([
      '--command',
      `node ${OFFICIAL_EVERYTHING} stdio`,
      '--revision',
      '2025-11-25',
      '--scenario',
      'parse-error',
      '--scenario',
      'ping',
    ]);
    expect(stderr).toContain('add --name official-everything to apply its baseline entries and scenarios');
    const parseError = report!.cells.find((cell) => cell.scenario === 'parse-error');
    expect(parseError).toMatchObject({ server: 'external', status: 'fail' });
    expect(parseError!.knownAs).toBeUndefined();
    expect(report!.targets[0]).toMatchObject({ resembles: 'official-everything' });
    expect(code).toBe(1);
  }, 120_000);

  test('named over a wire its baseline was not written for, entries that do not hold are reported, not stale', async () => {
    // The official-everything entries were written for its stdio transport; here it is reached over Streamable HTTP.
    const url = await startHttp(['-r', LOOPBACK, OFFICIAL_EVERYTHING, 'streamableHttp']);
    const { stdout, report } = await runCli([
      '--url',
      url,
      '--name',
      'official-everything',
      '--revision',
      '2025-11-25',
      '--scenario',
      'jsonrpc/*',
    ]);
    expect(report!.cells.filter((cell) => cell.status === 'stale')).toEqual([]);
    expect(report!.baseline.elsewhere?.length ?? 0).toBeGreaterThan(0);
    expect(report!.baseline.stale).toEqual([]);
    expect(stdout).toContain('Baseline entries that did not hold on a wire they were not written for');
    const held = report!.cells.filter((cell) => cell.reason?.startsWith('the baseline entry does not hold here'));
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((cell) => cell.status === 'pass')).toBe(true);
  }, 120_000);
});
