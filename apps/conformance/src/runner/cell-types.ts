/**
 * The unit of work and its outcome: one cell is one scenario against one server over one transport in one
 * revision.
 */
import type { ProtocolVersion } from '@wiremcp/protocol';
import type { ValidationIssue } from '@wiremcp/protocol/validators';
import type { DiffLine } from '../match/diff.js';
import type { Mismatch } from '../match/matcher.js';
import type { Scenario, ScenarioLevel } from '../scenario/scenario-types.js';
import type { Target, TargetTransport } from '../targets/target.js';

/** A cell to run (or to report as skipped). */
export interface Cell {
  readonly scenario: Scenario;
  readonly target: Target;
  readonly transport: TargetTransport;
  readonly revision: ProtocolVersion;
  /** Server capabilities in this cell (declared or probed), as dotted paths. */
  readonly capabilities: ReadonlySet<string>;
  /** Server features in this cell (declared, derived from probes, or those of the registry server it is named as). */
  readonly features: ReadonlySet<string>;
  /** Set when the cell does not apply to the server (a capability or feature it does not declare, a revision it does not speak). */
  readonly notApplicable?: string;
  /** Set when the cell cannot run (the server is not built…); the reason is reported. */
  readonly skip?: string;
  /** Set when the server could not be started or reached at warm-up: the cause. */
  readonly error?: string;
}

/**
 * Outcome of a cell:
 * - `pass`; `fail` (a MUST-level scenario failed); `warn` (a SHOULD or MAY-level scenario failed: reported, does not
 *   fail the run);
 * - `not-applicable` (the scenario does not apply to the server: a capability or feature it does not declare, a
 *   revision it does not speak); `skip` (it could not be checked: the server is not built, or a precondition of the
 *   scenario did not hold at run time, such as "the server lists no resource");
 * - `error` (the cell could not run: its server could not be started or reached, or the app itself failed);
 * - `not-exercised` (the cell ran, but none of its steps checked anything: every check is for another transport, era
 *   or feature; never counted as a pass);
 * - `expected-fail` and `stale`, decided by the baseline after the run.
 */
export type CellStatus = 'pass' | 'fail' | 'warn' | 'not-exercised' | 'not-applicable' | 'skip' | 'error' | 'expected-fail' | 'stale';

/** Every status, in report order. */
export const CELL_STATUSES: readonly CellStatus[] = [
  'pass',
  'fail',
  'warn',
  'not-exercised',
  'not-applicable',
  'skip',
  'error',
  'expected-fail',
  'stale',
];

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
  /**
   * When the step started, on the clock of the transcript's `at`: the step's own messages are the transcript entries
   * from then on (the cell stops at its failing step).
   */
  readonly stepAt?: number;
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
  readonly level: ScenarioLevel;
  readonly file: string;
  readonly server: string;
  /** The registry server an external target is named as with `--name` (its baseline entries apply). */
  readonly knownAs?: string;
  readonly transport: string;
  readonly revision: string;
  status: CellStatus;
  /** Why a cell was skipped, not applicable or in error; the baseline's reason for expected-fail and stale cells. */
  reason?: string;
  readonly durationMs: number;
  /** How the cell got its server process: `fresh` (its own), `shared` (one that served other cells before or after). */
  readonly process?: 'fresh' | 'shared';
  readonly failure?: StepFailure;
  /** The server's stderr tail (failures only). */
  readonly stderr?: string;
  /** Messages exchanged (failures only, capped). */
  readonly transcript?: readonly TranscriptEntry[];
}
