/**
 * The data of a whole run, as written to `results.json` (schema: `schemas/results.schema.json`, version
 * {@link RESULTS_SCHEMA_VERSION}) and rendered into the HTML report and JUnit XML.
 */
import type { CellResult } from '../runner/cell-types.js';
import type { ScenarioLoadError } from '../scenario/scenario-types.js';
import type { BaselineEntry } from './baseline.js';
import type { OfficialSuiteResults } from './official-suite.js';
import type { RuntimeRow } from './runtimes.js';
import { areaCounts, countStatuses, summaryRows, testedCount, type StatusCounts, type SummaryRow } from './summary.js';

/**
 * The version of the `results.json` schema. It changes only when a field is removed, renamed or changes meaning;
 * new optional fields may appear within a version.
 */
export const RESULTS_SCHEMA_VERSION = 1;

/** The app's version (reported as clientInfo and in results). */
export const APP_VERSION = '0.1.0';

/** A target as described in the report. */
export interface ReportTarget {
  readonly id: string;
  readonly title: string;
  readonly origin: 'registry' | 'external';
  readonly transports: readonly string[];
  /** ready: it answered at warm-up; unavailable: not built (cells skipped); error: it could not be started or reached. */
  readonly status: 'ready' | 'unavailable' | 'error';
  readonly unavailable?: string;
  readonly error?: string;
  readonly knownAs?: string;
  /** A registry server whose `serverInfo` it reports, not named with `--name`: suggested, never applied. */
  readonly resembles?: string;
  readonly warmUp?: {
    readonly transport: string;
    readonly asked?: string;
    readonly ms?: number;
    readonly serverInfo?: { readonly name: string; readonly version?: string };
    readonly error?: string;
  };
}

/** Everything about a run. */
export interface RunReport {
  readonly schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  readonly tool: 'wiremcp-conformance';
  readonly version: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly argv: readonly string[];
  readonly jobs: number;
  readonly options: { readonly startupTimeoutMs: number; readonly timeoutScale: number };
  /** 0, 1 or 3: see `exitCodeOf`. */
  readonly exitCode: number;
  readonly counts: StatusCounts;
  /** Cells that tested something (pass, fail, warn, expected-fail, stale). */
  readonly tested: number;
  readonly summary: readonly SummaryRow[];
  readonly areas: ReadonlyArray<{ readonly area: string; readonly counts: StatusCounts }>;
  readonly targets: readonly ReportTarget[];
  /** Server processes started for the cells. */
  readonly processes: number;
  readonly scenarioCount: number;
  readonly scenarioErrors: readonly ScenarioLoadError[];
  readonly baseline: {
    readonly file?: string;
    readonly used: readonly BaselineEntry[];
    readonly stale: readonly BaselineEntry[];
    /** Entries that covered a passing cell on a wire they were not written for (reported, not failed). */
    readonly elsewhere?: readonly BaselineEntry[];
    readonly unused: readonly BaselineEntry[];
  };
  readonly cells: readonly CellResult[];
  readonly officialSuite?: OfficialSuiteResults;
  /** Where the web-standard core was checked besides Node (runs of wiremcp's own servers only). */
  readonly runtimes?: readonly RuntimeRow[];
}

const MAX_STRING = 4000;

/** Deep copy with long strings clipped, so that a huge tool result does not make the report unreadable. */
export function clip(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length - MAX_STRING} more characters)` : value;
  if (Array.isArray(value)) return value.map(clip);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clip(item)]));
  return value;
}

/** What {@link buildReport} computes itself. */
type Derived = 'schemaVersion' | 'tool' | 'version' | 'counts' | 'tested' | 'summary' | 'areas';

/** Assembles the report of a run. */
export function buildReport(input: Omit<RunReport, Derived>): RunReport {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: 'wiremcp-conformance',
    version: APP_VERSION,
    ...input,
    counts: countStatuses(input.cells),
    tested: testedCount(input.cells),
    summary: summaryRows(input.cells),
    areas: areaCounts(input.cells),
    cells: input.cells.map((cell) => (cell.failure || cell.transcript ? (clip(cell) as CellResult) : cell)),
  };
}
