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
import {
  CLIENT_SCENARIOS_AT_A_TIME,
  limitClientRequirements,
  listClientScenarios,
  mergeScenarioRuns,
  plannedClientScenarios,
  runClientScenarios,
  selectClientScenarios,
  selectedButUnplanned,
  type ScenarioRun,
} from './client-groups.js';
import { clientFailureReports, clientTimeouts } from './client-failures.js';
import { judgeLeg, type ExpectedFailures, type LegVerdict } from './expected-failures.js';
import { readOutcomes, readRequirements, type Leg, type Requirements, type ScenarioOutcome } from './results.js';
import { ensureOfficialSuite, OFFICIAL_SUITE_PACKAGE, OFFICIAL_SUITE_VERSION, runOfficialSuite, type OfficialSuite } from './suite.js';

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
  /** Only the scored runs (`--requirements` of each revision) of both legs, not `--suite all` (default false). */
  readonly scoredOnly?: boolean;
  /** The client leg's per-scenario limit (the suite's `--timeout`; default {@link CLIENT_SCENARIO_TIMEOUT_MS}). */
  readonly clientTimeoutMs?: number;
  /**
   * How many client scenarios run at a time, each in its own process of the suite (default
   * {@link CLIENT_SCENARIOS_AT_A_TIME}; see client-groups.ts).
   */
  readonly clientAtATime?: number;
  /**
   * Only these client scenarios (names, or `prefix*` patterns; see {@link selectClientScenarios}), in each of the
   * three runs that plans them, scored out of themselves; default every scenario.
   */
  readonly clientScenarios?: readonly string[];
}

/**
 * The client leg's default per-scenario limit: 2 minutes, not the suite's 30 s. On a 2-core machine that is also
 * building and installing, a client program and the suite's mock server answering it can both be slow to start.
 */
export const CLIENT_SCENARIO_TIMEOUT_MS = 120_000;
/** Time a scenario's run of the suite gets beyond the client's limit (its own start, the mock server's stop). */
const SCENARIO_RUN_MARGIN_MS = 60_000;

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
  /** Scored scenarios with no result at all (the suite wrote none): neither passed nor failed. */
  readonly notRun: readonly string[];
  /** Scored scenarios the suite skipped as not applicable at the revision. */
  readonly notApplicable: readonly string[];
  readonly notScoredRun: number;
  readonly notScoredFailing: readonly string[];
  readonly notScoredNotExercised: readonly string[];
  readonly notScoredNotRun: readonly string[];
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

/** What one run found: results, and (client runs, planned scenario by scenario) what has none. */
interface LegResult {
  readonly run: LegRun;
  readonly outcomes: Map<string, ScenarioOutcome>;
  readonly notRun: readonly string[];
  readonly notApplicable: readonly string[];
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

/**
 * One client run, scenario by scenario (client-groups.ts): runs the planned scenarios a few at a time, merges their
 * results, and logs how long it took, what has no result, how many client programs ran out of time and what the suite
 * printed about each failed one.
 */
async function clientRun(
  run: LegRun,
  planned: readonly string[],
  suite: OfficialSuite,
  dir: string,
  options: OfficialRunOptions,
): Promise<LegResult> {
  const began = Date.now();
  const clientTimeoutMs = options.clientTimeoutMs ?? CLIENT_SCENARIO_TIMEOUT_MS;
  const atATime = options.clientAtATime ?? CLIENT_SCENARIOS_AT_A_TIME;
  const scenarioRuns: ScenarioRun[] = await runClientScenarios({
    // The client program's own limits follow the suite's per-scenario one (see client/time-limit.ts).
    suite: { ...suite, env: { ...suite.env, WIREMCP_CONFORMANCE_TIMEOUT_MS: String(clientTimeoutMs) } },
    clientCommand: options.clientCommand!,
    clientTimeoutMs,
    ...(run.revision === undefined ? {} : { revision: run.revision }),
    scenarios: planned,
    atATime,
    dir,
    runTimeoutMs: clientTimeoutMs + SCENARIO_RUN_MARGIN_MS,
  });
  const merged = mergeScenarioRuns(planned, scenarioRuns);
  options.log(
    `client ${run.suite}: ${planned.length} scenarios, ${atATime} at a time, ${merged.outcomes.size} with results in ` +
      `${((Date.now() - began) / 1000).toFixed(1)} s${apart('not run', merged.notRun)}${apart('not applicable', merged.notApplicable)}`,
  );
  const timedOut = scenarioRuns.reduce((sum, entry) => sum + clientTimeouts(entry.output), 0);
  if (timedOut > 0) options.log(`client ${run.suite}: ${timedOut} client program(s) timed out (the suite's per-scenario limit)`);
  // Only about scenarios that failed or left no result: a client program may exit non-zero in a scenario that passed.
  const reports = scenarioRuns
    .filter((entry) => entry.exitCode !== 0 && merged.outcomes.get(entry.scenario)?.passed !== true)
    .map((entry) => [entry.scenario, clientFailureReports(entry.output, 1_500)] as const)
    .filter(([, text]) => text !== '')
    .map(([scenario, text]) => `[${scenario}] ${text}`)
    .join('\n---\n');
  if (reports !== '')
    options.log(`client ${run.suite}: what the suite reported about failed client programs:\n${reports.slice(0, 12_000)}`);
  if (merged.outcomes.size === 0 && planned.length > 0)
    throw new Error(
      `the official suite produced no results for the client leg's ${run.suite}:\n${scenarioRuns.at(-1)!.output.slice(-2000)}`,
    );
  return { run, outcomes: merged.outcomes, notRun: merged.notRun, notApplicable: merged.notApplicable };
}

/**
 * The score of one leg's run on one revision: every scored scenario is passed, failing, not exercised, not run (no
 * result at all, whether or not it was planned one by one) or not applicable, and only the first counts as passed.
 */
export function scoreRevision(
  leg: Leg,
  revision: string,
  req: Requirements,
  found: ReadonlyMap<string, ScenarioOutcome>,
  notRun: readonly string[],
  notApplicable: readonly string[],
): RevisionScore {
  const scored = req.scored[leg];
  const skipped = scored.filter((name) => notApplicable.includes(name));
  const idle = (name: string): boolean => found.get(name)?.passed === true && !found.get(name)!.exercised;
  const failing = scored.filter((name) => found.get(name)?.passed === false);
  const notExercised = scored.filter(idle);
  const missing = scored.filter((name) => !found.has(name) && !skipped.includes(name));
  const notScored = req.notScored[leg].filter((name) => found.has(name));
  return {
    leg,
    revision,
    passed: scored.length - failing.length - notExercised.length - missing.length - skipped.length,
    total: scored.length,
    failing,
    notExercised,
    notRun: missing,
    notApplicable: skipped,
    notScoredRun: notScored.length,
    notScoredFailing: notScored.filter((name) => !found.get(name)!.passed),
    notScoredNotExercised: notScored.filter(idle),
    notScoredNotRun: notRun.filter((name) => !scored.includes(name)),
  };
}

/** Runs the legs asked for and judges them. */
export async function runOfficial(options: OfficialRunOptions): Promise<OfficialOutcome> {
  const started = Date.now();
  const suite = ensureOfficialSuite(options.log);
  let requirements = new Map(SCORED_REVISIONS.map((revision) => [revision, readRequirements(suite.packageDir, revision)]));
  const runs: LegRun[] = [];
  if (options.serverUrl !== undefined) runs.push(...legRuns('server', ['--url', options.serverUrl], options.scoredOnly));
  if (options.clientCommand !== undefined) runs.push(...legRuns('client', ['--command', options.clientCommand], options.scoredOnly));
  if (options.clientCommand !== undefined && !suite.netns) {
    options.log('no network namespace available (unshare -n): the client leg runs with the suite mocks on every interface');
  }
  const available = options.clientCommand === undefined ? [] : await listClientScenarios(suite);
  const only =
    options.clientCommand === undefined || options.clientScenarios === undefined
      ? undefined
      : selectClientScenarios(available, options.clientScenarios);
  if (only !== undefined) {
    requirements = new Map([...requirements].map(([revision, req]) => [revision, limitClientRequirements(req, only)]));
    options.log(`client leg limited to ${only.size} scenario(s): ${[...only].join(', ')}`);
  }
  const revisionOf = (run: LegRun): Requirements | undefined => requirements.get(run.revision as (typeof SCORED_REVISIONS)[number]);
  const scratch = mkdtempSync(join(tmpdir(), 'wiremcp-official-'));
  const ranRuns: LegResult[] = [];
  // Selected scenarios no client run plans (a scenario of `--suite all` alone, when only the scored runs run): not run.
  const plans = runs.filter((run) => run.leg === 'client').map((run) => plannedClientScenarios(available, revisionOf(run), only));
  const unplanned = only === undefined ? [] : selectedButUnplanned(only, plans);
  if (unplanned.length > 0) options.log(`selected client scenarios no run plans (not run): ${unplanned.join(', ')}`);
  try {
    for (const run of runs) {
      const dir = join(scratch, `${ranRuns.length}`);
      if (run.leg === 'client') {
        ranRuns.push(await clientRun(run, plannedClientScenarios(available, revisionOf(run), only), suite, dir, options));
        continue;
      }
      const began = Date.now();
      const result = await runOfficialSuite(suite, [...run.args, '-o', dir], false, options.runTimeoutMs ?? 300_000);
      const found = readOutcomes(dir, run.leg);
      options.log(
        `${run.leg} ${run.suite}: ${found.size} scenarios in ${((Date.now() - began) / 1000).toFixed(1)} s (exit ${result.exitCode})`,
      );
      if (found.size === 0)
        throw new Error(`the official suite produced no results for '${run.args.join(' ')}':\n${result.output.slice(-2000)}`);
      ranRuns.push({ run, outcomes: found, notRun: [], notApplicable: [] });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const scores: RevisionScore[] = [];
  for (const { run, outcomes: found, notRun, notApplicable } of ranRuns) {
    if (run.revision === undefined) continue;
    const req = requirements.get(run.revision as (typeof SCORED_REVISIONS)[number])!;
    scores.push(scoreRevision(run.leg, run.revision, req, found, notRun, notApplicable));
  }
  const verdicts: Partial<Record<Leg, LegVerdict>> = {};
  for (const leg of ['server', 'client'] as const) {
    const legResults = ranRuns.filter((entry) => entry.run.leg === leg);
    if (legResults.length === 0) continue;
    const notRun = new Set([
      ...(leg === 'client' ? unplanned : []),
      ...legResults.flatMap((entry) => entry.notRun),
      ...scores.filter((score) => score.leg === leg).flatMap((score) => score.notRun),
    ]);
    verdicts[leg] = {
      ...judgeLeg(
        options.expected[leg],
        legResults.map((entry) => entry.outcomes),
      ),
      notRun: [...notRun].sort(),
    };
  }
  const scoredNames = new Set([...requirements.values()].flatMap((req) => [...req.scored.server, ...req.scored.client]));
  const results: OfficialSuiteResults = {
    tool: OFFICIAL_SUITE_PACKAGE,
    version: OFFICIAL_SUITE_VERSION,
    command: options.command ?? 'npm run conformance:official',
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    runs: ranRuns.map(({ run, outcomes: found, notRun, notApplicable }): OfficialRun => {
      const target = run.leg === 'server' ? options.serverUrl : options.clientCommand;
      const name = run.leg === 'server' ? (options.serverName ?? 'server') : (options.clientName ?? 'client');
      return {
        server: `${run.leg} leg: ${name}`,
        transport: 'streamable-http',
        ...(run.revision === undefined ? {} : { revision: run.revision }),
        suite: run.suite,
        ...(run.leg === 'server' && target !== undefined ? { url: target } : {}),
        scenarios: [
          ...[...found.values()].map((outcome) => scenarioOf(outcome, options.expected[run.leg], scoredNames)),
          ...notRun.map((scenario) => ({ name: scenario, status: 'not-run' as const, scored: scoredNames.has(scenario) })),
          ...notApplicable.map((scenario) => ({ name: scenario, status: 'not-applicable' as const, scored: scoredNames.has(scenario) })),
        ],
      };
    }),
  };
  const summary = summarize(ranRuns, scores, verdicts, options.expected);
  if (only !== undefined)
    summary.splice(1, 0, `client leg limited to ${only.size} selected scenario(s) (--client-scenarios): ${[...only].join(', ')}`);
  const ok = Object.values(verdicts).every(
    (verdict) => verdict.unexpected.length === 0 && verdict.stale.length === 0 && (verdict.notRun ?? []).length === 0,
  );
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

/** `, N <what> (names)`: scenarios that are neither passes nor failures (not exercised, not run, not applicable). */
function apart(what: string, names: readonly string[]): string {
  return names.length === 0 ? '' : `, ${names.length} ${what} (${names.join(', ')})`;
}

function summarize(
  ranRuns: readonly LegResult[],
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
  for (const { run, outcomes: found, notRun, notApplicable } of ranRuns) {
    const score = scores.find((entry) => entry.leg === run.leg && entry.revision === run.revision && run.revision !== undefined);
    const all = [...found.values()];
    const failed = all.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
    const idle = all.filter((outcome) => outcome.passed && !outcome.exercised).map((outcome) => outcome.name);
    const head = `  ${run.leg.padEnd(6)} ${run.suite.padEnd(26)}`;
    if (score) {
      const not =
        `not scored: ${score.notScoredRun} run, ${score.notScoredFailing.length} failing${failingText(run.leg, score.notScoredFailing)}` +
        `${apart('not exercised', score.notScoredNotExercised)}${apart('not run', score.notScoredNotRun)}`;
      const scored =
        `scored ${score.passed}/${score.total}${failingText(run.leg, score.failing)}${apart('not exercised', score.notExercised)}` +
        `${apart('not run', score.notRun)}${apart('not applicable', score.notApplicable)}`;
      lines.push(`${head} ${scored}; ${not}`);
    } else {
      const passed = all.length - failed.length - idle.length;
      const count = all.length + notRun.length + notApplicable.length;
      lines.push(
        `${head} ${count} scenarios: ${passed} passed, ${failed.length} failed${failingText(run.leg, failed)}${apart('not exercised', idle)}` +
          `${apart('not run', notRun)}${apart('not applicable', notApplicable)}`,
      );
    }
  }
  const legTotal = (leg: Leg, title: string): string | undefined => {
    const legScores = scores.filter((entry) => entry.leg === leg);
    if (legScores.length === 0) return undefined;
    const sum = (of: (score: RevisionScore) => number): number => legScores.reduce((total, score) => total + of(score), 0);
    const apartCounts = [
      [sum((score) => score.notExercised.length), 'not exercised'],
      [sum((score) => score.notRun.length), 'not run'],
      [sum((score) => score.notApplicable.length), 'not applicable'],
    ].filter(([count]) => (count as number) > 0);
    const tail = apartCounts.length === 0 ? '' : ` (${apartCounts.map(([count, what]) => `${count} ${what}`).join(', ')})`;
    return `${title} ${sum((score) => score.passed)}/${sum((score) => score.total)}${tail}`;
  };
  const totals = [legTotal('server', 'Server'), legTotal('client', 'Client')].filter(Boolean);
  lines.push(`${totals.join(' · ')} (scored scenarios of ${SCORED_REVISIONS.join(' and ')}, each on its own wire)`);
  const listed = expected.server.size + expected.client.size;
  if (listed > 0) lines.push(`expected failures listed: ${expected.server.size} server, ${expected.client.size} client`);
  for (const [leg, verdict] of Object.entries(verdicts)) {
    if (verdict.unexpected.length) lines.push(`UNEXPECTED ${leg} failures: ${verdict.unexpected.join(', ')}`);
    if (verdict.stale.length) lines.push(`STALE expected ${leg} failures (they pass now; remove them): ${verdict.stale.join(', ')}`);
    if (verdict.notRun?.length)
      lines.push(`NOT RUN ${leg} scenarios (the suite left no result: neither passed nor failed): ${verdict.notRun.join(', ')}`);
  }
  return lines;
}
