/**
 * The expected-failures baseline (`baseline.yaml`). A failing cell that an entry covers becomes `expected-fail`
 * (it does not fail the run); a passing cell that an entry covers becomes `stale` (it does fail the run: the
 * entry must go, so that the fix cannot silently regress later). Skipped cells are left alone.
 */
import { formatProblem, loadYamlFile, parseYamlText } from '../scenario/yaml-file.js';
import type { CellResult } from '../runner/cell-types.js';

/** One expected failure: scenario (id or glob), server, optionally transports and revisions, why, and where it is tracked. */
export interface BaselineEntry {
  readonly scenario: string;
  readonly server: string;
  readonly transport?: string | readonly string[];
  readonly revision?: string | readonly string[];
  readonly reason: string;
  /** Where the defect is tracked (an issue or pull request URL). */
  readonly link?: string;
}

/** Thrown for a baseline file that does not validate. */
export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineError';
  }
}

function toEntries(data: { expectedFailures: BaselineEntry[] | null } | undefined): BaselineEntry[] {
  return data?.expectedFailures ?? [];
}

/** Loads a baseline file; a missing file is an empty baseline only when `optional`. */
export function loadBaseline(file: string): BaselineEntry[] {
  const loaded = loadYamlFile<{ expectedFailures: BaselineEntry[] | null }>(file, 'baseline.schema.json');
  if (!loaded.data) throw new BaselineError(loaded.problems.map((problem) => formatProblem(file, problem)).join('\n'));
  return toEntries(loaded.data);
}

/** Parses baseline YAML text (tests). */
export function parseBaseline(text: string): BaselineEntry[] {
  const loaded = parseYamlText<{ expectedFailures: BaselineEntry[] | null }>(text, 'baseline.schema.json');
  if (!loaded.data) throw new BaselineError(loaded.problems.map((problem) => formatProblem('(baseline)', problem)).join('\n'));
  return toEntries(loaded.data);
}

function globMatches(glob: string, value: string): boolean {
  const regex = new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return regex.test(value);
}

function listMatches(selector: string | readonly string[] | undefined, value: string): boolean {
  if (selector === undefined) return true;
  return (typeof selector === 'string' ? [selector] : selector).includes(value);
}

/**
 * True when `entry` covers the cell. An entry names a server by its id; it also covers an external target
 * named as that server (`knownAs`: `--name <id>`; the `serverInfo` it reports only suggests it).
 */
export function entryCovers(
  entry: BaselineEntry,
  result: Pick<CellResult, 'scenario' | 'server' | 'transport' | 'revision'> & { readonly knownAs?: string },
): boolean {
  return (
    globMatches(entry.scenario, result.scenario) &&
    (entry.server === result.server || entry.server === result.knownAs) &&
    listMatches(entry.transport, result.transport) &&
    listMatches(entry.revision, result.revision)
  );
}

/** What applying a baseline found. */
export interface BaselineOutcome {
  /** Entries that covered at least one failing cell. */
  readonly used: readonly BaselineEntry[];
  /** Entries that covered at least one passing cell of a target they were written for (those cells are now `stale`). */
  readonly stale: readonly BaselineEntry[];
  /**
   * Entries that covered a passing cell of a target they were not written for (a server named as a registry
   * server but run over another transport or revision): reported, and the cell stays a pass.
   */
  readonly elsewhere: readonly BaselineEntry[];
  /** Entries that covered no cell that ran (filtered out, or a scenario that no longer exists). */
  readonly unused: readonly BaselineEntry[];
}

/** Whether the cell is on a target the entry was written for; see {@link applyBaseline}. */
export type WrittenFor = (entry: BaselineEntry, result: CellResult) => boolean;

/**
 * Rewrites the status of every covered cell in place (`fail` → `expected-fail`, `pass` → `stale`, with the
 * entry's reason; a `warn` keeps its status and gets the reason) and tells which entries were used, stale or
 * unused. A passing cell on a target the entry was not written for (`writtenFor` false) stays a pass, with a
 * note, and the entry is listed as `elsewhere`: a baseline says nothing about a wire nobody wrote it for.
 */
export function applyBaseline(
  results: CellResult[],
  entries: readonly BaselineEntry[],
  writtenFor: WrittenFor = () => true,
): BaselineOutcome {
  const used = new Set<BaselineEntry>();
  const stale = new Set<BaselineEntry>();
  const elsewhere = new Set<BaselineEntry>();
  const touched = new Set<BaselineEntry>();
  for (const result of results) {
    if (result.status !== 'pass' && result.status !== 'fail' && result.status !== 'warn') continue;
    const entry = entries.find((candidate) => entryCovers(candidate, result));
    if (!entry) continue;
    touched.add(entry);
    if (result.status === 'fail') {
      result.status = 'expected-fail';
      used.add(entry);
    } else if (result.status === 'warn') {
      used.add(entry);
    } else if (!writtenFor(entry, result)) {
      elsewhere.add(entry);
      result.reason = `the baseline entry does not hold here (it was written for ${entry.server} elsewhere): ${entry.reason}`;
      continue;
    } else {
      result.status = 'stale';
      stale.add(entry);
    }
    result.reason = entry.reason;
  }
  return { used: [...used], stale: [...stale], elsewhere: [...elsewhere], unused: entries.filter((entry) => !touched.has(entry)) };
}
