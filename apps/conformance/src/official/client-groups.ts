/**
 * The official client leg in small groups. The suite's own `client --requirements <revision>` and `--suite all` runs
 * start every client scenario of the run at once, all their mock servers in the suite's one Node process; on a busy
 * 2-core machine (load 22 → 66) that process stopped serving them in time (`initialize` unanswered after 115 s,
 * connections reset), and scenarios failed on the suite's side, not the client's. Here each client scenario is its own
 * run of the suite's CLI (`client --scenario <name>`, the revision's wire with `--spec-version <revision> --force`, as
 * `--requirements` runs them), at most a few at a time, and the runs' results are merged into the one run they stand
 * for: the same scenarios, judged and scored the same way.
 *
 * A planned scenario whose run left no result of its own (the suite's process crashed, was killed at its limit, or
 * wrote nothing) is **not run**, and one the suite skipped as not applicable at the revision is **not applicable**:
 * each is counted apart, never as a pass.
 */
import { join } from 'node:path';
import { readOutcomes, type Requirements, type ScenarioOutcome } from './results.js';
import { runOfficialSuite, type OfficialSuite } from './suite.js';

/** How many client scenarios run at a time by default (each in its own process of the suite). */
export const CLIENT_SCENARIOS_AT_A_TIME = 6;

/** The client scenario names in what the suite's `list --client` printed (`  - <name> [<revisions>]` lines). */
export function parseClientScenarioList(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Client scenarios'));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s+- (\S+)/.exec(line);
    if (match === null) break;
    names.push(match[1]!);
  }
  return names;
}

/** The client scenarios the installed suite provides (its `list --client`); throws when it lists none. */
export async function listClientScenarios(suite: OfficialSuite): Promise<string[]> {
  const result = await runOfficialSuite(suite, ['list', '--client'], false, 60_000);
  const names = parseClientScenarioList(result.output);
  if (names.length === 0)
    throw new Error(`the official suite listed no client scenarios (exit ${result.exitCode}):\n${result.output.slice(-2000)}`);
  return names;
}

/**
 * The client scenarios one run covers, as the suite would choose them: for a revision, its requirement set's scored
 * and not-scored client scenarios (a not-scored one this build of the suite lacks is left out, as the suite does; a
 * scored one is kept, so that it counts as not run rather than vanishing); for `--suite all`, every client scenario.
 * With `only` (see {@link selectClientScenarios}), just those of them; `--suite all` then plans every selected name,
 * listed or not, so that a name the suite no longer has counts as not run rather than vanishing.
 */
export function plannedClientScenarios(available: readonly string[], requirements?: Requirements, only?: ReadonlySet<string>): string[] {
  if (requirements === undefined) return only === undefined ? [...available] : [...only];
  const has = new Set(available);
  const planned = [...requirements.scored.client, ...requirements.notScored.client.filter((name) => has.has(name))];
  return only === undefined ? planned : planned.filter((name) => only.has(name));
}

/**
 * The client scenarios a selection names (`--client-scenarios`): exact names as given, listed by the suite or not
 * (one it lacks is then not run, which fails the run), and `prefix*` patterns expanded against the suite's list.
 * Throws on an empty selection, an empty name, or a pattern that matches nothing: a check that would run nothing.
 */
export function selectClientScenarios(available: readonly string[], selection: readonly string[]): Set<string> {
  if (selection.length === 0) throw new Error('no client scenario selected');
  const selected = new Set<string>();
  for (const entry of selection) {
    if (entry === '' || entry === '*') throw new Error(`'${entry}' does not name client scenarios (a name, or a prefix ending in *)`);
    if (!entry.endsWith('*')) {
      selected.add(entry);
      continue;
    }
    const prefix = entry.slice(0, -1);
    const matches = available.filter((name) => name.startsWith(prefix));
    if (matches.length === 0) throw new Error(`'${entry}' matches none of the suite's client scenarios`);
    for (const name of matches) selected.add(name);
  }
  return selected;
}

/**
 * Selected scenarios that none of the runs plans (for example one only `--suite all` covers, when only the scored runs
 * run): they leave no result, so they are not run, which fails the run rather than shrinking the check unseen.
 */
export function selectedButUnplanned(only: ReadonlySet<string>, plans: ReadonlyArray<readonly string[]>): string[] {
  return [...only].filter((name) => !plans.some((plan) => plan.includes(name)));
}

/** A revision's requirement set with its client scenarios limited to `only` (scored out of those alone). */
export function limitClientRequirements(requirements: Requirements, only: ReadonlySet<string>): Requirements {
  return {
    scored: { ...requirements.scored, client: requirements.scored.client.filter((name) => only.has(name)) },
    notScored: { ...requirements.notScored, client: requirements.notScored.client.filter((name) => only.has(name)) },
  };
}

/**
 * Runs `run` on every item, never more than `limit` at once, starting them in order; the results in the items' order.
 * `run` must not reject (a rejection ends the whole call).
 */
export async function runAtMost<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`at most ${limit} at a time: a whole number of at least 1 is needed`);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** One scenario's run of the suite's CLI. */
export interface ScenarioRun {
  readonly scenario: string;
  readonly exitCode: number | null;
  /** What the suite printed. */
  readonly output: string;
  /** What it wrote (`checks.json` files): a run answers only for its own scenario. */
  readonly outcomes: ReadonlyMap<string, ScenarioOutcome>;
}

/** The merged runs of one planned set. */
export interface MergedClientRun {
  /** The planned scenarios that have a result, from their own run. */
  readonly outcomes: Map<string, ScenarioOutcome>;
  /** Planned scenarios whose run left no result: neither passed nor failed. */
  readonly notRun: readonly string[];
  /** Planned scenarios the suite skipped as not applicable at the run's revision. */
  readonly notApplicable: readonly string[];
}

const skippedLine = (scenario: string): string => `SKIPPED: scenario '${scenario}' is not applicable`;

/** Merges the scenario runs into the outcome of the whole planned set. */
export function mergeScenarioRuns(planned: readonly string[], runs: readonly ScenarioRun[]): MergedClientRun {
  const outcomes = new Map<string, ScenarioOutcome>();
  const notRun: string[] = [];
  const notApplicable: string[] = [];
  for (const scenario of planned) {
    const own = runs.filter((run) => run.scenario === scenario);
    const outcome = own.map((run) => run.outcomes.get(scenario)).find((found) => found !== undefined);
    if (outcome !== undefined) outcomes.set(scenario, outcome);
    else if (own.some((run) => run.output.includes(skippedLine(scenario)))) notApplicable.push(scenario);
    else notRun.push(scenario);
  }
  return { outcomes, notRun, notApplicable };
}

/** What to run in groups. */
export interface ClientGroupsOptions {
  readonly suite: OfficialSuite;
  readonly clientCommand: string;
  /** The suite's per-scenario limit for the client program (`--timeout`). */
  readonly clientTimeoutMs: number;
  /** The revision whose wire the scenarios use (`--spec-version <revision> --force`); none for `--suite all`. */
  readonly revision?: string;
  readonly scenarios: readonly string[];
  readonly atATime: number;
  /** Where each scenario's run writes (a directory per scenario under it). */
  readonly dir: string;
  /** Limit of one scenario's run of the suite's CLI; it is killed then and its scenario counts as not run. */
  readonly runTimeoutMs: number;
}

/** Runs each planned client scenario in its own process of the suite, `atATime` at once; every run, in plan order. */
export function runClientScenarios(options: ClientGroupsOptions): Promise<ScenarioRun[]> {
  return runAtMost(options.scenarios, options.atATime, async (scenario, index) => {
    const dir = join(options.dir, String(index));
    const args = [
      'client',
      '--command',
      options.clientCommand,
      '--timeout',
      String(options.clientTimeoutMs),
      '--scenario',
      scenario,
      ...(options.revision === undefined ? [] : ['--spec-version', options.revision, '--force']),
      '-o',
      dir,
    ];
    const result = await runOfficialSuite(options.suite, args, true, options.runTimeoutMs);
    let outcomes: ReadonlyMap<string, ScenarioOutcome>;
    try {
      outcomes = readOutcomes(dir, 'client');
    } catch (error) {
      // A checks.json that cannot be read is no result.
      return { scenario, exitCode: result.exitCode, output: `${result.output}\n${(error as Error).message}`, outcomes: new Map() };
    }
    return { scenario, exitCode: result.exitCode, output: result.output, outcomes };
  });
}
