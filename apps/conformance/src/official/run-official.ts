/**
 * Runs the official MCP conformance suite: the server leg against a Streamable HTTP URL and the client leg with a
 * client command, each on both scored revisions (`--requirements 2025-11-25`, `--requirements 2026-07-28`, every
 * scenario on its own wire) and on `--suite all` (pending and extension scenarios too); scores the runs against the
 * suite's requirement sets, compares them with the expected failures, and returns the results in the shape of
 * `results.schema.json#/definitions/officialSuite` with tier-check style totals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OfficialRun, OfficialScenario, OfficialStatus, OfficialSuiteResults } from '../report/official-suite.js';
import { judgeLeg, type ExpectedFailures, type LegVerdict } from './expected-failures.js';
import { readOutcomes, readRequirements, type Leg, type ScenarioOutcome } from './results.js';
import { ensureOfficialSuite, OFFICIAL_SUITE_PACKAGE, OFFICIAL_SUITE_VERSION, runOfficialSuite } from './suite.js';

/** The scored revisions. */
export const SCORED_REVISIONS = ['2025-11-25', '2026-07-28'] as const;

/** What to run. */
export interface OfficialRunOptions {
  /** The server leg's endpoint (a localhost URL: the suite's DNS-rebinding check needs one). */
  readonly serverUrl?: string;
  /** The server's name in reports. */
  readonly serverName?: string;
  /** The client leg's command (the suite appends the mock server's URL). */
  readonly clientCommand?: string;
  /** The client's name in reports. */
  readonly clientName?: string;
  readonly expected: ExpectedFailures;
  /** Progress lines. */
  readonly log: (line: string) => void;
  /** How the run was started, for the results file. */
  readonly command?: string;
  /** Limit of one run of the suite's CLI (default 5 minutes). */
  readonly runTimeoutMs?: number;
  /** Only the scored runs (`--requirements` of each revision), not `--suite all` (default false). */
  readonly scoredOnly?: boolean;
  /**
   * The client leg's per-scenario limit (the suite's `--timeout`; default {@link CLIENT_SCENARIO_TIMEOUT_MS}). The
   * suite starts every client scenario at once, so each limit also covers dozens of client programs starting together.
   */
  readonly clientTimeoutMs?: number;
}

/**
 * The client leg's default per-scenario limit: 2 minutes, not the suite's 30 s. The suite starts all of a run's client
 * scenarios at once (dozens of Node processes); on a 2-core machine that is also building and installing, starting
 * them took longer than 30 s, and every check of the scenarios still waiting failed.
 */
export const CLIENT_SCENARIO_TIMEOUT_MS = 120_000;

/** How many client programs the suite reports as timed out in a run's output (its own `Client timed out` lines). */
export function clientTimeouts(output: string): number {
  return output.match(/Client timed out after \d+ ?ms/g)?.length ?? 0;
}

/**
 * What the suite printed about client programs that failed (its `Client exited with code` and `Client timed out`
 * reports, with the program's stdout and stderr it quotes), at most `limit` characters: the cause of a failed client
 * scenario is there, and the suite's per-scenario files are gone with the run's scratch directory.
 */
export function clientFailureReports(output: string, limit = 6_000): string {
  const reports = `\n${output}`
    .split(/\n(?=Client exited with code|Client timed out)/)
    .slice(1)
    .map((report) => report.split(/\n(?=Running |\S+ (?:passed|failed))/)[0]!.trim());
  const text = reports.join('\n---\n');
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}

/** The score of one leg on one revision. */
export interface RevisionScore {
  readonly leg: Leg;
  readonly revision: string;
  /** Scored scenarios that passed and exercised something. */
  readonly passed: number;
  readonly total: number;
  readonly failing: readonly string[];
  /** Scored scenarios that ran no check of their own: neither passed nor failed. */
  readonly notExercised: readonly string[];
  readonly notScoredRun: number;
  readonly notScoredFailing: readonly string[];
  readonly notScoredNotExercised: readonly string[];
}

/** Everything a run of the official suite found. */
export interface OfficialOutcome {
  readonly results: OfficialSuiteResults;
  readonly scores: readonly RevisionScore[];
  readonly verdicts: Readonly<Partial<Record<Leg, LegVerdict>>>;
  /** Printable summary: a line per run, the totals, the verdict. */
  readonly summary: readonly string[];
  /** True when nothing unexpected failed and no expected failure is stale. */
  readonly ok: boolean;
}

interface LegRun {
  readonly leg: Leg;
  readonly revision?: string;
  readonly suite: string;
  readonly args: readonly string[];
}

function legRuns(leg: Leg, target: readonly string[], scoredOnly = false): LegRun[] {
  const runs: LegRun[] = [
    ...SCORED_REVISIONS.map((revision) => ({
      leg,
      revision,
      suite: `--requirements ${revision}`,
      args: [leg, ...target, '--requirements', revision],
    })),
  ];
  if (!scoredOnly) runs.push({ leg, suite: '--suite all', args: [leg, ...target, '--suite', 'all'] });
  return runs;
}

/** Runs the legs asked for and judges them. */
export async function runOfficial(options: OfficialRunOptions): Promise<OfficialOutcome> {
  const started = Date.now();
  const suite = ensureOfficialSuite(options.log);
  const runs: LegRun[] = [];
  if (options.serverUrl !== undefined) runs.push(...legRuns('server', ['--url', options.serverUrl], options.scoredOnly));
  const clientTimeout = String(options.clientTimeoutMs ?? CLIENT_SCENARIO_TIMEOUT_MS);
  if (options.clientCommand !== undefined)
    runs.push(...legRuns('client', ['--command', options.clientCommand, '--timeout', clientTimeout]));
  if (options.clientCommand !== undefined && !suite.netns) {
    options.log('no network namespace available (unshare -n): the client leg runs with the suite mocks on every interface');
  }
  const scratch = mkdtempSync(join(tmpdir(), 'wiremcp-official-'));
  const outcomes: Array<{ run: LegRun; outcomes: Map<string, ScenarioOutcome> }> = [];
  try {
    for (const run of runs) {
      const dir = join(scratch, `${outcomes.length}`);
      const began = Date.now();
      // The client program's own limits follow the suite's per-scenario one (see client/time-limit.ts).
      const env = run.leg === 'client' ? { ...suite.env, WIREMCP_CONFORMANCE_TIMEOUT_MS: clientTimeout } : suite.env;
      const result = await runOfficialSuite(
        { ...suite, env },
        [...run.args, '-o', dir],
        run.leg === 'client',
        options.runTimeoutMs ?? 300_000,
      );
      const found = readOutcomes(dir, run.leg);
      options.log(
        `${run.leg} ${run.suite}: ${found.size} scenarios in ${((Date.now() - began) / 1000).toFixed(1)} s (exit ${result.exitCode})`,
      );
      const timedOut = run.leg === 'client' ? clientTimeouts(result.output) : 0;
      if (timedOut > 0) options.log(`client ${run.suite}: ${timedOut} client program(s) timed out (the suite's per-scenario limit)`);
      const reports = run.leg === 'client' && result.exitCode !== 0 ? clientFailureReports(result.output) : '';
      if (reports !== '') options.log(`client ${run.suite}: what the suite reported about failed client programs:\n${reports}`);
      if (found.size === 0)
        throw new Error(`the official suite produced no results for '${run.args.join(' ')}':\n${result.output.slice(-2000)}`);
      outcomes.push({ run, outcomes: found });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const requirements = new Map(SCORED_REVISIONS.map((revision) => [revision, readRequirements(suite.packageDir, revision)]));
  const scores: RevisionScore[] = [];
  for (const { run, outcomes: found } of outcomes) {
    if (run.revision === undefined) continue;
    const req = requirements.get(run.revision as (typeof SCORED_REVISIONS)[number])!;
    const scored = req.scored[run.leg];
    const failing = scored.filter((name) => found.get(name)?.passed !== true);
    const idle = (name: string): boolean => found.get(name)?.passed === true && !found.get(name)!.exercised;
    const notExercised = scored.filter(idle);
    const notScored = req.notScored[run.leg].filter((name) => found.has(name));
    scores.push({
      leg: run.leg,
      revision: run.revision,
      passed: scored.length - failing.length - notExercised.length,
      total: scored.length,
      failing,
      notExercised,
      notScoredRun: notScored.length,
      notScoredFailing: notScored.filter((name) => !found.get(name)!.passed),
      notScoredNotExercised: notScored.filter(idle),
    });
  }
  const verdicts: Partial<Record<Leg, LegVerdict>> = {};
  for (const leg of ['server', 'client'] as const) {
    const legOutcomes = outcomes.filter((entry) => entry.run.leg === leg).map((entry) => entry.outcomes);
    if (legOutcomes.length > 0) verdicts[leg] = judgeLeg(options.expected[leg], legOutcomes);
  }
  const scoredNames = new Set([...requirements.values()].flatMap((req) => [...req.scored.server, ...req.scored.client]));
  const results: OfficialSuiteResults = {
    tool: OFFICIAL_SUITE_PACKAGE,
    version: OFFICIAL_SUITE_VERSION,
    command: options.command ?? 'npm run conformance:official',
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    runs: outcomes.map(({ run, outcomes: found }): OfficialRun => {
      const target = run.leg === 'server' ? options.serverUrl : options.clientCommand;
      const name = run.leg === 'server' ? (options.serverName ?? 'server') : (options.clientName ?? 'client');
      return {
        server: `${run.leg} leg: ${name}`,
        transport: 'streamable-http',
        ...(run.revision === undefined ? {} : { revision: run.revision }),
        suite: run.suite,
        ...(run.leg === 'server' && target !== undefined ? { url: target } : {}),
        scenarios: [...found.values()].map((outcome) => scenarioOf(outcome, options.expected[run.leg], scoredNames)),
      };
    }),
  };
  const summary = summarize(outcomes, scores, verdicts, options.expected);
  const ok = Object.values(verdicts).every((verdict) => verdict.unexpected.length === 0 && verdict.stale.length === 0);
  return { results, scores, verdicts, summary, ok };
}

/** The status of a scenario: a pass that exercised nothing is `not-exercised`. */
export function officialStatusOf(outcome: ScenarioOutcome, expected: ReadonlySet<string>): OfficialStatus {
  if (!outcome.passed) return expected.has(outcome.name) ? 'expected-fail' : 'fail';
  if (!outcome.exercised) return 'not-exercised';
  return outcome.checks.warnings > 0 ? 'warn' : 'pass';
}

function scenarioOf(outcome: ScenarioOutcome, expected: ReadonlySet<string>, scored: ReadonlySet<string>): OfficialScenario {
  const status = officialStatusOf(outcome, expected);
  return {
    name: outcome.name,
    status,
    scored: scored.has(outcome.name),
    checks: outcome.checks,
    ...(outcome.failures.length > 0 ? { failures: outcome.failures } : {}),
  };
}

/** `, N not exercised (names)`: scenarios that ran no check of their own; they are not passes. */
function notExercisedText(names: readonly string[]): string {
  return names.length === 0 ? '' : `, ${names.length} not exercised (${names.join(', ')})`;
}

function summarize(
  outcomes: ReadonlyArray<{ run: LegRun; outcomes: Map<string, ScenarioOutcome> }>,
  scores: readonly RevisionScore[],
  verdicts: Partial<Record<Leg, LegVerdict>>,
  expected: ExpectedFailures,
): string[] {
  const lines: string[] = [`${OFFICIAL_SUITE_PACKAGE} ${OFFICIAL_SUITE_VERSION}`];
  // A list of failing scenarios names the unexpected ones; expected ones are only counted.
  const failingText = (leg: Leg, names: readonly string[]): string => {
    if (names.length === 0) return '';
    const unexpected = names.filter((name) => !expected[leg].has(name));
    return unexpected.length === 0 ? ' (all expected)' : ` (unexpected: ${unexpected.join(', ')})`;
  };
  for (const { run, outcomes: found } of outcomes) {
    const score = scores.find((entry) => entry.leg === run.leg && entry.revision === run.revision && run.revision !== undefined);
    const all = [...found.values()];
    const failed = all.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
    const idle = all.filter((outcome) => outcome.passed && !outcome.exercised).map((outcome) => outcome.name);
    const head = `  ${run.leg.padEnd(6)} ${run.suite.padEnd(26)}`;
    if (score) {
      const not =
        `not scored: ${score.notScoredRun} run, ${score.notScoredFailing.length} failing${failingText(run.leg, score.notScoredFailing)}` +
        `${notExercisedText(score.notScoredNotExercised)}`;
      lines.push(
        `${head} scored ${score.passed}/${score.total}${failingText(run.leg, score.failing)}${notExercisedText(score.notExercised)}; ${not}`,
      );
    } else {
      const passed = all.length - failed.length - idle.length;
      lines.push(
        `${head} ${all.length} scenarios: ${passed} passed, ${failed.length} failed${failingText(run.leg, failed)}${notExercisedText(idle)}`,
      );
    }
  }
  const total = (leg: Leg) => {
    const legScores = scores.filter((entry) => entry.leg === leg);
    if (legScores.length === 0) return undefined;
    const passed = legScores.reduce((sum, entry) => sum + entry.passed, 0);
    return `${passed}/${legScores.reduce((sum, entry) => sum + entry.total, 0)}`;
  };
  const idleTotal = (leg: Leg) => scores.filter((entry) => entry.leg === leg).reduce((sum, entry) => sum + entry.notExercised.length, 0);
  const legTotal = (leg: Leg, title: string) => {
    const text = total(leg);
    if (text === undefined) return undefined;
    return `${title} ${text}${idleTotal(leg) > 0 ? ` (${idleTotal(leg)} not exercised)` : ''}`;
  };
  const totals = [legTotal('server', 'Server'), legTotal('client', 'Client')].filter(Boolean);
  lines.push(`${totals.join(' · ')} (scored scenarios of ${SCORED_REVISIONS.join(' and ')}, each on its own wire)`);
  const listed = expected.server.size + expected.client.size;
  if (listed > 0) lines.push(`expected failures listed: ${expected.server.size} server, ${expected.client.size} client`);
  for (const [leg, verdict] of Object.entries(verdicts)) {
    if (verdict.unexpected.length) lines.push(`UNEXPECTED ${leg} failures: ${verdict.unexpected.join(', ')}`);
    if (verdict.stale.length) lines.push(`STALE expected ${leg} failures (they pass now; remove them): ${verdict.stale.join(', ')}`);
  }
  return lines;
}
