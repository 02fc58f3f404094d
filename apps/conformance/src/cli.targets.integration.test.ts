/**
 * The app against servers that misbehave before any scenario can run, and its command line as a new user meets
 * it: a command that does not exist, one that exits at once, one that never answers, one that is slow to start,
 * a cold "package manager" that must not be started several times at once, `--list` with `--command`, a
 * `--scenario` filter that matches nothing, a mistyped option; plus JUnit and the results schema. Every process
 * a test starts is stopped by the test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT, REPO_ROOT, SCHEMAS_DIR } from './paths.js';
import { freePort } from './session/free-port.js';
import { CLI, runCli, stopStarted, tempDir } from './testing/run-cli.test-util.js';

const TESTING = join(PACKAGE_ROOT, 'src', 'testing');
const EVERYTHING = join(REPO_ROOT, 'servers', 'everything', 'dist', 'bin.js');
const OFFICIAL_EVERYTHING = join(PACKAGE_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm test builds before running vitest)`);
});

afterEach(() => stopStarted());

/** Runs the CLI with `args` (plain progress, a temporary --out), returning its exit code, output and report. */
const cli = runCli;

describe('a server that cannot be started or reached is an error naming the cause, never a pass', () => {
  test('a command that does not exist', async () => {
    const { code, stdout, stderr, report } = await cli([
      '--command',
      'wiremcp-no-such-server --stdio',
      '--name',
      'ghost',
      '--scenario',
      'ping',
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain('ENOENT');
    expect(stdout).toMatch(
      /Could not run \(\d+ cells; the run fails\):\n +\d+ × ghost · stdio-ndjson: `wiremcp-no-such-server --stdio` could not be started: spawn wiremcp-no-such-server ENOENT/,
    );
    expect(stdout).toContain('nothing was tested');
    expect(report!.targets[0]).toMatchObject({ id: 'ghost', status: 'error', error: expect.stringContaining('no such command') });
    expect(report!.tested).toBe(0);
    expect(report!.cells.length).toBeGreaterThan(0);
    expect(report!.cells.every((cell) => cell.status === 'error')).toBe(true);
  });

  test('a command that exits with code 3 at once: the exit code and its stderr are reported', async () => {
    const { code, stdout, report } = await cli(['--command', `node ${join(TESTING, 'exits-at-once.mjs')}`, '--scenario', 'ping']);
    expect(code).toBe(3);
    expect(stdout).toMatch(/exited \(code 3\) before answering initialize 2025-11-25; stderr: fatal: cannot read the configuration file/);
    expect(report!.exitCode).toBe(3);
  });

  test('a command that never answers: the start-up timeout is reported', async () => {
    const { code, stdout, stderr } = await cli([
      '--command',
      `node ${join(TESTING, 'never-answers.mjs')}`,
      '--scenario',
      'ping',
      '--startup-timeout',
      '1',
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain('start-up timeout: 1 s per server start (--startup-timeout)');
    expect(stdout).toMatch(/did not answer initialize 2025-11-25 within 1 s \(--startup-timeout\) \(nothing on stderr\)/);
  });

  test('a command that writes a banner on stdout fails its start at once, the line quoted, not after the start-up timeout', async () => {
    // The start-up timeout is longer than this test's own limit: only the banner can end the start in time.
    const { code, stdout, report } = await cli(
      ['--command', `node ${join(TESTING, 'talks-instead.mjs')} stdout`, '--scenario', 'ping', '--startup-timeout', '600'],
      60_000,
    );
    expect(code).toBe(3);
    expect(stdout).toContain('wrote a line to stdout that is not JSON: "Starting the weather server v1.2 on stdio...');
    expect(stdout).toContain('stdout carries only protocol messages; logs go to stderr');
    expect(report!.targets[0]).toMatchObject({ status: 'error' });
  }, 70_000);

  test('a command that never answers: the start-up timeout is reported with what it wrote on stderr', async () => {
    // Long enough for a busy machine to start node and let it write its line.
    const { code, stdout } = await cli([
      '--command',
      `node ${join(TESTING, 'talks-instead.mjs')} stderr`,
      '--scenario',
      'ping',
      '--startup-timeout',
      '8',
    ]);
    expect(code).toBe(3);
    expect(stdout).toMatch(
      /did not answer initialize 2025-11-25 within 8 s \(--startup-timeout\); stderr: Starting the weather server v1\.2 on stdio\.\.\./,
    );
  });

  test('a URL where nothing listens', async () => {
    const port = await freePort();
    const { code, stdout } = await cli(['--url', `http://127.0.0.1:${port}/mcp`, '--scenario', 'ping']);
    expect(code).toBe(3);
    expect(stdout).toContain(`could not be reached: POST http://127.0.0.1:${port}/mcp failed: fetch failed (ECONNREFUSED)`);
  });
});

describe('start-up', () => {
  test('a slow start is not charged to the first step: expect timeouts start when the server has started', async () => {
    // Every start takes 6 s, longer than any expect timeout (5 s at most; the scale is left at 1 so that a step on a
    // loaded machine still has its time). Charged to the first step, each cell would fail.
    const command = `node ${join(TESTING, 'start-later.mjs')} 6000 ${EVERYTHING}`;
    const { code, report } = await cli(['--command', command, '--revision', '2025-11-25', '--scenario', 'lifecycle/*', '--jobs', '2']);
    const ran = report!.cells.filter((cell) => cell.process !== undefined);
    expect(ran.length).toBeGreaterThan(3);
    expect(ran.filter((cell) => cell.status !== 'pass').map((cell) => `${cell.scenario}: ${cell.failure?.message ?? cell.reason}`)).toEqual(
      [],
    );
    expect(code).toBe(0);
  }, 180_000);

  test('a cold package manager is started once, alone, before anything runs in parallel', async () => {
    const cache = tempDir('wiremcp-slow-installer-');
    const command = `node ${join(TESTING, 'slow-installer.mjs')} ${cache} 400 ${EVERYTHING}`;
    const { code, stderr } = await cli(['--command', command, '--scenario', 'tools/*', '--jobs', '6']);
    expect(stderr).toMatch(/starting external once before the run/);
    expect(readFileSync(join(cache, 'installs'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(cache, 'overlaps'))).toBe(false);
    expect(code).toBe(0);
  });
});

describe('the command line', () => {
  test('--list with --command starts and probes the server, then shows what would run and what does not apply', async () => {
    const { code, stdout, stderr, report } = await cli([
      '--list',
      '--command',
      `node ${OFFICIAL_EVERYTHING} stdio`,
      '--scenario',
      'tools-list',
      '--scenario',
      'discover',
    ]);
    expect(code).toBe(0);
    expect(report).toBeUndefined();
    expect(stderr).toContain('probing external');
    expect(stdout).toMatch(/tools\/tools-list {2}external {2}stdio-ndjson {2}2025-11-25 {2}run \(shared process\)/);
    expect(stdout).toMatch(
      /versioning\/discover {2}external {2}stdio-ndjson {2}2026-07-28 {2}not-applicable: the server does not speak 2026-07-28/,
    );
    expect(stdout).toMatch(/6 cells: 4 to run .*, 2 not applicable/);
  });

  test('a --scenario filter that matches nothing is a usage error', async () => {
    const { code, stderr } = await cli(['--scenario', 'no-such-scenario-anywhere']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      "wiremcp-conformance: --scenario 'no-such-scenario-anywhere' matches no scenario (ids, area/id or areas; * is a wildcard)",
      'Run wiremcp-conformance --help for the options.',
    ]);
  });

  test('a mistyped option gets one line, a suggestion and a hint, not the whole help', async () => {
    const { code, stderr } = await cli(['--scenaro', 'ping']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'wiremcp-conformance: unknown option --scenaro (did you mean --scenario?)',
      'Run wiremcp-conformance --help for the options.',
    ]);
  });
});

describe('reports for CI', () => {
  test('results.json follows its schema; --junit writes JUnit XML', async () => {
    const junit = join(tempDir('wiremcp-junit-'), 'conformance.xml');
    const { code, report } = await cli(['--server', 'grammar', '--revision', '2025-11-25', '--scenario', 'lifecycle/*', '--junit', junit]);
    expect(code).toBe(0);
    const ajv = new Ajv({ allErrors: true, strict: true });
    const validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS_DIR, 'results.schema.json'), 'utf8')) as object);
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(report!.schemaVersion).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="wiremcp-conformance" tests="\d+" failures="0" errors="0"/,
    );
    expect(xml).toContain('<testsuite name="grammar · stdio-ndjson · 2025-11-25"');
    expect(xml).toContain('<testcase classname="grammar.stdio-ndjson.2025-11-25.lifecycle" name="ping"');
    // request-before-initialize applies (grammar is dual-era); ping-before-initialize and the rest pass too.
    expect((xml.match(/<testcase /g) ?? []).length).toBe(report!.cells.length);
  });
});

describe('a cell that checked nothing', () => {
  test('is not exercised: counted apart in the summary, results.json and JUnit, never as a pass', async () => {
    const scenarios = tempDir('wiremcp-scenarios-');
    mkdirSync(join(scenarios, 'lifecycle'));
    writeFileSync(
      join(scenarios, 'lifecycle', 'ping-over-http-only.yaml'),
      [
        'id: ping-over-http-only',
        'title: a scenario whose only check is for another transport',
        'area: lifecycle',
        'spec: 2025-11-25/basic/utilities/ping',
        'revisions: [2025-11-25]',
        'steps:',
        '  - handshake: {}',
        '  - send: { jsonrpc: "2.0", id: 2, method: ping }',
        '  - expect: { id: 2, result: {} }',
        '    when: { transports: [http] }',
        '',
      ].join('\n'),
    );
    const junit = join(tempDir('wiremcp-junit-'), 'conformance.xml');
    const { code, stdout, report } = await cli([
      '--server',
      'grammar',
      '--transport',
      'stdio-ndjson',
      '--scenarios-dir',
      scenarios,
      '--junit',
      junit,
    ]);
    expect(report!.cells).toHaveLength(1);
    expect(report!.cells[0]).toMatchObject({ status: 'not-exercised', reason: expect.stringContaining('checked nothing') });
    expect(report!.counts).toMatchObject({ pass: 0, 'not-exercised': 1 });
    expect(report!.tested).toBe(0);
    expect(stdout).toContain('1 not exercised');
    expect(stdout).toContain('u1');
    expect(readFileSync(junit, 'utf8')).toContain('<skipped message="not exercised: ');
    // Nothing was tested: the run cannot pass.
    expect(code).toBe(1);
  });
});
