/**
 * The unit of work and its outcome: one cell is one scenario against one server over one transport in one
 * revision.
 */
import type { ProtocolVersion } from '@wiremcp/protocol';
import type { ValidationIssue } from '@wiremcp/protocol/validators';
import type { DiffLine } from '../match/diff.js';
import type { Mismatch } from '../match/matcher.js';
import type { Scenario } from '../scenario/scenario-types.js';
import type { Target, TargetTransport } from '../targets/target.js';

/** A cell to run (or to report as skipped). */
export interface Cell {
  readonly scenario: Scenario;
  readonly target: Target;
  readonly transport: TargetTransport;
  readonly revision: ProtocolVersion;
  /** Server capabilities in this cell (declared or probed), as dotted paths. */
  readonly capabilities: ReadonlySet<string>;
  /** Set when the cell cannot run; the reason is reported. */
  readonly skip?: string;
}

/** Outcome of a cell. `expected-fail` and `stale` are decided by the baseline after the run. */
export type CellStatus = 'pass' | 'fail' | 'skip' | 'expected-fail' | 'stale';

/** One line of a cell's transcript: what was sent, what came back, and notes (exits, violations). */
export interface TranscriptEntry {
  readonly at: number;
  readonly dir: 'out' | 'in' | 'note';
  readonly message?: unknown;
  readonly text?: string;
}

/** Why a cell failed: the step, what it expected, what came instead. */
export interface StepFailure {
  /** Index of the step in the scenario (-1: after the last step, or before the first). */
  readonly step: number;
  /** The step's action and name, e.g. `expect: tools/list answers 4 tools`. */
  readonly stepLabel: string;
  /** One readable sentence. */
  readonly message: string;
  /** The resolved pattern (or message) the step worked with. */
  readonly expected?: unknown;
  /** The closest actual message (same id, same method, or the last one), when there is one. */
  readonly actual?: unknown;
  readonly mismatches?: readonly Mismatch[];
  readonly diff?: readonly DiffLine[];
  /** Schema issues when the failure is a schema violation. */
  readonly issues?: readonly ValidationIssue[];
}

/** The outcome of one cell. */
export interface CellResult {
  readonly scenario: string;
  readonly area: string;
  readonly title: string;
  readonly spec: readonly string[];
  readonly level: 'must' | 'should';
  readonly file: string;
  readonly server: string;
  readonly transport: string;
  readonly revision: string;
  status: CellStatus;
  /** Skip reason, or the baseline's reason for expected-fail and stale cells. */
  reason?: string;
  readonly durationMs: number;
  readonly failure?: StepFailure;
  /** The server's stderr tail (failures only). */
  readonly stderr?: string;
  /** Messages exchanged (failures only, capped). */
  readonly transcript?: readonly TranscriptEntry[];
}
