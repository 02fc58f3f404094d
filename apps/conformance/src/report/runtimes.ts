/**
 * The runtime rows of the report: where the web-standard core was checked, and with what result.
 *
 * - Node, Deno, Bun and workerd: the official suite's server leg against the everything server's `createHttpHandler`
 *   served by each runtime (`npm run conformance:official -- --runtimes deno,bun,workerd`), read from the official
 *   results the report includes.
 * - Chromium: the browser tests of `tests/browser` (client page, OAuth popup, server in a worker), which write
 *   `out/runtimes/chromium.<file>.json` when they end.
 *
 * A runtime with no results is "not run", with the command that runs it; it never counts as passed. A test or
 * scenario that ran no check of its own (skipped, a set-up that failed) is "not exercised".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OfficialSuiteResults } from './official-suite.js';

/** One runtime row. */
export interface RuntimeRow {
  readonly runtime: string;
  /** What was checked there. */
  readonly check: string;
  /** `ran`: results were found; `not-run`: none (the command says how to get them). */
  readonly status: 'ran' | 'not-run';
  /** The runtime's version, when known. */
  readonly version?: string;
  readonly passed: number;
  readonly failed: number;
  /** Failures listed as expected (the official suite's expected-failures files). */
  readonly expectedFailed: number;
  /** Ran no check of its own: skipped, or never reached (a set-up that failed). */
  readonly notExercised: number;
  /** When the results were produced. */
  readonly at?: string;
  /** How to produce them. */
  readonly command: string;
  /** Set-up errors and results files that could not be read. */
  readonly problems?: readonly string[];
}

const OFFICIAL_COMMAND = 'npm run conformance:official -- --runtimes deno,bun,workerd';
const BROWSER_COMMAND = 'node_modules/.bin/vitest run tests/browser';
const SERVER_LEG = 'server leg: wiremcp servers/everything';

/** Official server-leg runs on one runtime: `on <Title> <version>` after the server name, none for Node. */
function officialRow(official: OfficialSuiteResults | undefined, runtime: string, title: string | undefined): RuntimeRow {
  const check = 'official suite, server leg (everything server)';
  const runs = (official?.runs ?? []).filter((run) => {
    if (!run.server.startsWith(SERVER_LEG)) return false;
    const on = /^ on (\S+) (\S+)/.exec(run.server.slice(SERVER_LEG.length));
    return title === undefined ? run.server === SERVER_LEG : on?.[1] === title;
  });
  if (runs.length === 0)
    return { runtime, check, status: 'not-run', passed: 0, failed: 0, expectedFailed: 0, notExercised: 0, command: OFFICIAL_COMMAND };
  const version = title === undefined ? undefined : /^ on \S+ (\S+)/.exec(runs[0]!.server.slice(SERVER_LEG.length))?.[1];
  const count = (...statuses: string[]): number =>
    runs.reduce((sum, run) => sum + run.scenarios.filter((scenario) => statuses.includes(scenario.status)).length, 0);
  return {
    runtime,
    check: `${check}, ${runs.length} run${runs.length === 1 ? '' : 's'}`,
    status: 'ran',
    ...(version === undefined ? {} : { version }),
    passed: count('pass', 'warn'),
    failed: count('fail'),
    expectedFailed: count('expected-fail'),
    notExercised: count('skip', 'not-exercised', 'not-run', 'not-applicable'),
    ...(official?.startedAt === undefined ? {} : { at: official.startedAt }),
    command: OFFICIAL_COMMAND,
  };
}

interface BrowserResults {
  readonly version?: string;
  readonly file?: string;
  readonly finishedAt?: string;
  readonly tests?: ReadonlyArray<{ readonly name?: string; readonly state?: string }>;
  readonly errors?: readonly string[];
}

/** The Chromium row from the files the browser tests wrote into `<outDir>/runtimes`. */
function chromiumRow(outDir: string): RuntimeRow {
  const check = 'tests/browser: client page, OAuth popup, server in a worker';
  const directory = join(outDir, 'runtimes');
  const files = existsSync(directory)
    ? readdirSync(directory)
        .filter((name) => /^chromium\..+\.json$/.test(name))
        .sort()
    : [];
  if (files.length === 0)
    return {
      runtime: 'Chromium',
      check,
      status: 'not-run',
      passed: 0,
      failed: 0,
      expectedFailed: 0,
      notExercised: 0,
      command: BROWSER_COMMAND,
    };
  let passed = 0;
  let failed = 0;
  let notExercised = 0;
  let version: string | undefined;
  let at: string | undefined;
  const problems: string[] = [];
  for (const name of files) {
    let results: BrowserResults;
    try {
      results = JSON.parse(readFileSync(join(directory, name), 'utf8')) as BrowserResults;
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message.slice(0, 200)}`);
      failed += 1;
      continue;
    }
    for (const test of results.tests ?? []) {
      if (test.state === 'pass') passed += 1;
      else if (test.state === 'fail') failed += 1;
      else notExercised += 1;
    }
    for (const error of results.errors ?? []) problems.push(`${results.file ?? name}: ${error}`);
    version ??= results.version;
    // The oldest file dates the row: a row is only as fresh as its oldest part.
    if (results.finishedAt !== undefined && (at === undefined || results.finishedAt < at)) at = results.finishedAt;
  }
  return {
    runtime: 'Chromium',
    check: `${check} (${files.length} file${files.length === 1 ? '' : 's'})`,
    status: 'ran',
    ...(version === undefined ? {} : { version }),
    passed,
    failed,
    expectedFailed: 0,
    notExercised,
    ...(at === undefined ? {} : { at }),
    command: BROWSER_COMMAND,
    ...(problems.length > 0 ? { problems } : {}),
  };
}

/** The runtime rows: Node, Deno, Bun, workerd (official server leg) and Chromium (browser tests). */
export function runtimeRows(official: OfficialSuiteResults | undefined, outDir: string): RuntimeRow[] {
  return [
    officialRow(official, 'Node', undefined),
    officialRow(official, 'Deno', 'Deno'),
    officialRow(official, 'Bun', 'Bun'),
    officialRow(official, 'workerd', 'workerd'),
    chromiumRow(outDir),
  ];
}

/** One line per runtime for the terminal. */
export function formatRuntimeRows(rows: readonly RuntimeRow[]): string {
  const lines = ['Runtimes (the everything server and the client outside Node):'];
  for (const row of rows) {
    const name = `${row.runtime}${row.version ? ` ${row.version}` : ''}`.padEnd(22);
    if (row.status === 'not-run') {
      lines.push(`  ${name} not run (${row.check}): ${row.command}`);
      continue;
    }
    const parts = [`${row.passed} passed`, `${row.failed} failed`];
    if (row.expectedFailed > 0) parts.push(`${row.expectedFailed} expected failures`);
    parts.push(`${row.notExercised} not exercised`);
    lines.push(`  ${name} ${parts.join(', ')} — ${row.check}${row.at ? `, ${row.at}` : ''}`);
    for (const problem of row.problems ?? []) lines.push(`    ! ${problem}`);
  }
  return lines.join('\n');
}
