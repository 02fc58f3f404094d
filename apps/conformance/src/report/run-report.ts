/**
 * The data of a whole run, as written to `results.json` and rendered into the HTML report.
 */
import type { CellResult } from '../runner/cell-types.js';
import type { ScenarioLoadError } from '../scenario/scenario-types.js';
import type { BaselineEntry } from './baseline.js';
import { countStatuses, summaryRows, type StatusCounts, type SummaryRow } from './summary.js';

/** A target as described in the report. */
export interface ReportTarget {
  readonly id: string;
  readonly title: string;
  readonly origin: 'registry' | 'external';
  readonly transports: readonly string[];
  readonly unavailable?: string;
}

/** Everything about a run. */
export interface RunReport {
  readonly tool: 'wiremcp-conformance';
  readonly version: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly argv: readonly string[];
  readonly jobs: number;
  /** 0 when nothing failed unexpectedly and no baseline entry is stale. */
  readonly exitCode: number;
  readonly counts: StatusCounts;
  readonly summary: readonly SummaryRow[];
  readonly targets: readonly ReportTarget[];
  readonly scenarioCount: number;
  readonly scenarioErrors: readonly ScenarioLoadError[];
  readonly baseline: {
    readonly file: string | undefined;
    readonly used: readonly BaselineEntry[];
    readonly stale: readonly BaselineEntry[];
    readonly unused: readonly BaselineEntry[];
  };
  readonly cells: readonly CellResult[];
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

/** Assembles the report of a run. */
export function buildReport(input: Omit<RunReport, 'tool' | 'version' | 'counts' | 'summary'>): RunReport {
  return {
    tool: 'wiremcp-conformance',
    version: '0.1.0',
    ...input,
    counts: countStatuses(input.cells),
    summary: summaryRows(input.cells),
    cells: input.cells.map((cell) => (cell.status === 'pass' || cell.status === 'skip' ? cell : (clip(cell) as CellResult))),
  };
}
