/**
 * The app end to end, through its real entry (`dist/cli.js`, built by `npm test` before vitest runs): a small
 * slice of the matrix against our grammar server, the baseline's stale rule, the official everything server as
 * an external `--command` target, and the raw Streamable HTTP session against that server in its HTTP mode.
 * Every process a test starts is stopped by the test, on success and on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from './paths.js';
import { freePort } from './session/free-port.js';
import { waitForPort } from './session/wait-for-port.js';
import type { CellResult } from './runner/cell-types.js';
import { CLI, runCli, stopStarted, type CliRun } from './testing/run-cli.test-util.js';

const OFFICIAL_EVERYTHING = join(PACKAGE_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
let out: string;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm test builds before running vitest)`);
});

afterEach(() => stopStarted());

/** Runs the CLI with `args`, returning its exit code and output (`out`: where it wrote its reports). Killed after `timeoutMs`. */
async function cli(args: string[], timeoutMs = 90_000): Promise<CliRun> {
  const run = await runCli(args, timeoutMs);
  out = run.out;
  return run;
}

describe('wiremcp-conformance', () => {
  test('the seed wire trace passes on the grammar server over both framings in every revision', async () => {
    const { code, stdout, report } = await cli(['--server', 'grammar', '--scenario', 'seed-wire-trace']);
    expect(stdout).toContain('10 cells');
    expect(code).toBe(0);
    expect(report!.exitCode).toBe(0);
    // The seed trace is a stdio scenario: its WebSocket cells are counted not applicable, never as passes.
    const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
    expect(report!.cells.map((cell) => `${cell.transport} ${cell.revision} ${cell.status}`).sort()).toEqual([
      ...['stdio-content-length', 'stdio-ndjson'].flatMap((transport) => revisions.map((revision) => `${transport} ${revision} pass`)),
      ...revisions.map((revision) => `websocket ${revision} not-applicable`),
    ]);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('PASSED');
    expect(html).toContain('<th class="a" colspan="16">seed</th>');
    expect(html).toContain('seed-wire-trace</th>');
  }, 120_000);

  test('a baseline entry for a cell that passes is stale and fails the run', async () => {
    const baseline = join(mkdtempSync(join(tmpdir(), 'wiremcp-baseline-')), 'baseline.yaml');
    writeFileSync(
      baseline,
      'expectedFailures:\n  - { scenario: seed-wire-trace, server: grammar, transport: stdio-ndjson, revision: 2025-11-25, reason: fixed long ago }\n',
    );
    try {
      const { code, stdout, report } = await cli([
        '--server',
        'grammar',
        '--scenario',
        'seed-wire-trace',
        '--transport',
        'stdio-ndjson',
        '--revision',
        '2025-11-25',
        '--baseline',
        baseline,
      ]);
      expect(code).toBe(1);
      expect(report!.cells[0]).toMatchObject({ status: 'stale', reason: 'fixed long ago' });
      expect(stdout).toContain('Stale baseline entries');
    } finally {
      rmSync(join(baseline, '..'), { recursive: true, force: true });
    }
  }, 60_000);

  test('--command runs the generic scenarios against the official everything server, probing what it speaks', async () => {
    const { report, stderr } = await cli([
      '--command',
      `node ${OFFICIAL_EVERYTHING} stdio`,
      '--name',
      'official',
      '--scenario',
      'lifecycle/*',
      '--scenario',
      'discover',
      '--no-baseline',
    ]);
    expect(stderr).toContain('starting official once before the run');
    expect(stderr).toContain('probing official');
    const status = (scenario: string, revision: string) =>
      report!.cells.find((cell) => cell.scenario === scenario && cell.revision === revision)?.status;
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      expect(status('initialize-negotiates-requested-version', revision)).toBe('pass');
      expect(status('ping', revision)).toBe('pass');
    }
    // It is a legacy-only server: the 2026-07-28 cells do not apply, with the probe's reason; they are not failures.
    const modern = report!.cells.find((cell) => cell.scenario === 'discover');
    expect(modern).toMatchObject({ status: 'not-applicable', reason: expect.stringContaining('does not speak 2026-07-28') });
    // Scenarios for dual-era servers do not apply to it.
    const dualEra = report!.cells.filter((cell) => cell.scenario === 'request-before-initialize');
    expect(dualEra.length).toBeGreaterThan(0);
    expect(dualEra.every((cell) => cell.status === 'not-applicable')).toBe(true);
    // It reports itself as mcp-servers/everything, as the registry's official-everything does: suggested, not applied.
    const official = report!.targets.find((target) => target.id === 'official');
    expect(official).toMatchObject({ status: 'ready', resembles: 'official-everything' });
    expect(official!.knownAs).toBeUndefined();
    expect(stderr).toContain('add --name official-everything to apply its baseline entries and scenarios');
    expect(report!.cells.some((cell) => cell.area === 'official-everything')).toBe(false);
  }, 120_000);

  test('--events -: stdout carries one event per line (start, each cell, end), a failure says when its step started', async () => {
    const { code, stdout, stderr } = await cli([
      '--command',
      `node ${OFFICIAL_EVERYTHING} stdio`,
      '--scenario',
      'tools-call-unknown-tool,tools-list',
      '--revision',
      '2025-11-25',
      '--transport',
      'stdio-ndjson',
      '--no-baseline',
      '--events',
      '-',
    ]);
    expect(code).toBe(1); // the official server answers an unknown tool with an isError result (servers#4159)
    const events = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { result?: CellResult });
    expect(events.map((event) => event.type)).toEqual(['start', 'cell', 'cell', 'end']);
    expect(events[0]).toMatchObject({ cells: 2, runnable: 2, targets: ['external'] });
    expect(events.at(-1)).toMatchObject({ exitCode: 1, aborted: false, counts: { pass: 1, fail: 1, 'not-exercised': 0 } });
    const failed = events.find((event) => event.result?.status === 'fail')!.result!;
    expect(failed.scenario).toBe('tools-call-unknown-tool');
    const stepAt = failed.failure!.stepAt!;
    expect(typeof stepAt).toBe('number');
    // The step's own messages: the answer that failed the check came after the step started.
    expect(failed.transcript!.some((entry) => entry.dir === 'in' && entry.at >= stepAt)).toBe(true);
    expect(stderr).toContain('results:'); // the text went to stderr
  }, 120_000);

  test('the baseline of a registry server applies when the user names it; SHOULD-level findings are warnings', async () => {
    const { code, stdout, report } = await cli([
      '--command',
      `node ${OFFICIAL_EVERYTHING} stdio`,
      '--name',
      'official-everything',
      '--revision',
      '2025-11-25',
      '--scenario',
      'parse-error',
      '--scenario',
      'tools-list-invalid-cursor',
      '--scenario',
      'ping',
    ]);
    const status = (scenario: string) => report!.cells.find((cell) => cell.scenario === scenario);
    // Named with --name: the registry's official-everything entries apply.
    expect(status('parse-error')).toMatchObject({ server: 'official-everything', knownAs: 'official-everything', status: 'expected-fail' });
    // A SHOULD: a warning (with the baseline's explanation), not a failure.
    expect(status('tools-list-invalid-cursor')).toMatchObject({
      status: 'warn',
      level: 'should',
      reason: expect.stringContaining('cursors are ignored'),
    });
    expect(status('ping')).toMatchObject({ status: 'pass' });
    expect(stdout).toContain('Warnings (SHOULD/MAY scenarios that failed; they do not fail the run)');
    expect(code).toBe(0);
  }, 120_000);
});

describe('Streamable HTTP (--url) against the official everything server in its HTTP mode', () => {
  let server: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    // The official server binds every interface; the preload keeps it on 127.0.0.1.
    server = spawn(
      process.execPath,
      ['-r', join(PACKAGE_ROOT, 'src', 'testing', 'force-loopback.cjs'), OFFICIAL_EVERYTHING, 'streamableHttp'],
      {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    server.stderr!.resume();
    url = `http://127.0.0.1:${port}/mcp`;
    await waitForPort(port, 15_000, server);
  }, 30_000);

  afterAll(() => {
    server?.kill('SIGKILL');
  });

  test('sessions, SSE and JSON answers, 202 for notifications, version and session headers', async () => {
    const { report } = await cli([
      '--url',
      url,
      '--name',
      'official-http',
      '--revision',
      '2025-06-18,2025-11-25',
      '--scenario',
      'http-notification-accepted',
      '--scenario',
      'http-protocol-version-header',
      '--scenario',
      'http-session-id-required',
      '--scenario',
      'ping',
      '--scenario',
      'tools-list',
      '--scenario',
      'unknown-method',
      '--no-baseline',
    ]);
    const cells = report!.cells.filter((cell) => cell.status !== 'skip');
    expect(cells.map((cell) => cell.scenario).sort()).toEqual(
      ['http-notification-accepted', 'http-protocol-version-header', 'http-session-id-required', 'ping', 'tools-list', 'unknown-method']
        .flatMap((s) => [s, s])
        .sort(),
    );
    expect(cells.filter((cell) => cell.status !== 'pass').map((cell) => `${cell.scenario}: ${cell.failure?.message}`)).toEqual([]);
  }, 120_000);
});

describe('an HTTP transport of a registry server', () => {
  test('its server process is started once and every cell opens its own session on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiremcp-registry-'));
    const registry = join(dir, 'servers.yaml');
    writeFileSync(
      registry,
      [
        'servers:',
        '  - id: official-http',
        '    title: the official everything server over Streamable HTTP',
        `    command: [${JSON.stringify(process.execPath)}, -r, ${JSON.stringify(join(PACKAGE_ROOT, 'src', 'testing', 'force-loopback.cjs'))}, ${JSON.stringify(OFFICIAL_EVERYTHING)}, streamableHttp]`,
        '    revisions: [2025-06-18, 2025-11-25]',
        '    capabilities: [tools, tools.listChanged, resources, resources.subscribe, resources.listChanged, prompts, prompts.listChanged, completions, logging]',
        '    transports:',
        "      streamable-http: { url: 'http://127.0.0.1:{{port}}/mcp', env: { PORT: '{{port}}' } }",
        '',
      ].join('\n'),
    );
    try {
      const { code, stderr, report } = await cli([
        '--registry',
        registry,
        '--server',
        'official-http',
        '--scenario',
        'http-notification-accepted',
        '--scenario',
        'ping',
        '--scenario',
        'tools-list',
        '--no-baseline',
      ]);
      expect(stderr).toMatch(/official-http answered initialize 2025-11-25 after/);
      const ran = report!.cells.filter((cell) => cell.process !== undefined);
      expect(ran.map((cell) => `${cell.scenario} ${cell.revision} ${cell.status}`).sort()).toEqual([
        'http-notification-accepted 2025-06-18 pass',
        'http-notification-accepted 2025-11-25 pass',
        'ping 2025-06-18 pass',
        'ping 2025-11-25 pass',
        'tools-list 2025-06-18 pass',
        'tools-list 2025-11-25 pass',
      ]);
      expect(report!.processes).toBe(1);
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
