/**
 * Runs one cell from start to end on the session its host opened: replays the steps, checks every message on the
 * way, and always closes the session (a process the cell owns is stopped on success, failure, timeout and
 * exceptions; a shared one is handed back to its host).
 */
import type { CellContext } from '../hosts/host.js';
import { eraOf } from '../scenario/selectors.js';
import { stepAction } from '../scenario/load-scenarios.js';
import type { Step } from '../scenario/scenario-types.js';
import { isHttpTransport } from '../scenario/scenario-types.js';
import type { CellSession } from '../session/cell-session.js';
import { CellSkipped, CellState, StartupFailed, StepFailed } from './cell-state.js';
import type { Cell, CellResult, StepFailure } from './cell-types.js';
import { conditionHolds } from './conditions.js';
import { runStep } from './steps.js';

/** Options of {@link runCell}. */
export interface RunCellOptions {
  /** Hard limit for the whole cell once its server has started, in ms (a hung server cannot stall the run). Default 60 s. */
  readonly cellTimeoutMs?: number;
  /** Multiplies every expect timeout (slow machines, debuggers). Default 1. */
  readonly timeoutScale?: number;
  /** How long a server process may take to show a sign of life before a waiting step starts its clock. */
  readonly startupTimeoutMs: number;
  /** After how long a silent fresh process of this cell's server counts as started (see `CellState`); none: never. */
  readonly assumeStartedAfterMs?: (cell: Cell) => number | undefined;
}

/** A short label for a step: its name, or its action plus the method it sends or expects. */
export function stepLabel(step: Step): string {
  const action = stepAction(step);
  if (step.name) return `${action}: ${step.name}`;
  const body = (step as unknown as Record<string, unknown>)[action];
  if (typeof body === 'object' && body !== null && typeof (body as Record<string, unknown>)['method'] === 'string') {
    return `${action} ${(body as Record<string, string>)['method']}`;
  }
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['id'] : undefined;
  if (action === 'expect' && (typeof id === 'number' || typeof id === 'string' || id === null)) return `${action} id ${JSON.stringify(id)}`;
  return action;
}

function base(cell: Cell): Omit<CellResult, 'status' | 'durationMs'> {
  const { scenario } = cell;
  return {
    scenario: scenario.id,
    area: scenario.area,
    title: scenario.title,
    spec: scenario.spec,
    level: scenario.level,
    file: scenario.file,
    server: cell.target.id,
    ...(cell.target.knownAs === undefined ? {} : { knownAs: cell.target.knownAs }),
    transport: cell.transport.id,
    revision: cell.revision,
  };
}

/**
 * The result of a cell that does not run, or undefined when it runs: skipped (the server is not built), in error
 * (the server could not be started or reached), or not applicable (a capability, feature or revision the server
 * does not have). A registry server declares its capabilities, so a scenario that does not apply to it says so
 * even when the server is down; an unreachable external server could not be probed, so its cells are in error.
 */
export function staticResult(cell: Cell): CellResult | undefined {
  if (cell.skip !== undefined) return { ...base(cell), status: 'skip', reason: cell.skip, durationMs: 0 };
  const declared = cell.target.capabilities !== undefined;
  if (cell.notApplicable !== undefined && (declared || cell.error === undefined))
    return { ...base(cell), status: 'not-applicable', reason: cell.notApplicable, durationMs: 0 };
  if (cell.error !== undefined) return { ...base(cell), status: 'error', reason: cell.error, durationMs: 0 };
  return undefined;
}

/** The result of a cell whose server could not be started or reached when its turn came. */
export function errorResult(cell: Cell, reason: string): CellResult {
  return { ...base(cell), status: 'error', reason, durationMs: 0 };
}

class CellTimeout extends Error {}

const NOT_EXERCISED = 'the scenario checked nothing in this cell: each of its checks is for another transport, era or feature';

/** Steps that check what the server did (an expectation, or a send with an expected HTTP status). */
function isCheck(step: Step): boolean {
  const action = stepAction(step);
  if (['expect', 'expectNone', 'expectExit', 'paginate', 'assert', 'http'].includes(action)) return true;
  return (action === 'send' || action === 'sendPayload' || action === 'sendRaw') && (step as { status?: unknown }).status !== undefined;
}

/** Runs a cell on `session` and returns its result; never throws. */
export async function runCell(cell: Cell, session: CellSession, context: CellContext, options: RunCellOptions): Promise<CellResult> {
  const started = Date.now();
  const { scenario } = cell;
  const scale = options.timeoutScale ?? 1;
  const cellTimeoutMs = options.cellTimeoutMs ?? 60_000;
  const state = new CellState(session, cell.revision, eraOf(cell.revision), structuredClone(scenario.clientCapabilities), {
    server: cell.target.id,
    transport: cell.transport.id,
    limits: cell.target.limits,
  });
  state.legacySession = context.legacySession;
  state.assumeStartedAfterMs = options.assumeStartedAfterMs?.(cell);
  state.scenarioId = scenario.id;
  for (const note of context.notes) state.note(note);
  let failure: StepFailure | undefined;
  let skipReason: string | undefined;
  let errorReason: string | undefined;
  let current = -1;
  let currentAt: number | undefined;
  let checks = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const env = {
    isHttp: isHttpTransport(cell.transport.id),
    defaultTimeoutMs: Math.round(scenario.timeoutMs * scale),
    timeoutScale: scale,
    startupTimeoutMs: options.startupTimeoutMs,
  };
  const steps = async (): Promise<void> => {
    for (const [index, step] of scenario.steps.entries()) {
      current = index;
      if (!conditionHolds(step.when, cell)) continue;
      if (isCheck(step)) checks += 1;
      currentAt = session.log.now();
      await runStep(state, env, step);
      await state.ingest();
    }
    current = -1;
    currentAt = session.log.now();
    // Whatever already arrived is checked too: a late schema violation is still a violation.
    await state.ingest();
  };
  // The cell's own clock starts when its server has started (the start-up has its own timeout).
  const limitMs = cellTimeoutMs + (session.isStarted() ? 0 : options.startupTimeoutMs);
  try {
    const work = steps();
    // If the cell times out, the steps still settle later (the closed session makes them fail): not unhandled.
    work.catch(() => {});
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CellTimeout()), limitMs);
      }),
    ]);
  } catch (error) {
    const label = current >= 0 ? stepLabel(scenario.steps[current]!) : '(after the last step)';
    const at = currentAt === undefined ? {} : { stepAt: currentAt };
    if (error instanceof CellSkipped) skipReason = error.reason;
    else if (error instanceof StartupFailed) errorReason = error.message;
    else if (error instanceof StepFailed) failure = { step: current, stepLabel: label, ...at, ...error.failure };
    else if (error instanceof CellTimeout)
      failure = { step: current, stepLabel: label, ...at, message: `the cell did not finish within ${limitMs} ms` };
    else errorReason = `harness error at step ${current} (${label}): ${(error as Error).stack ?? String(error)}`;
  } finally {
    clearTimeout(timer);
    // Bounded as well: stopping a server can never hold the run (child processes get SIGKILL in any case).
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    const closing = session.close().catch(() => {});
    await Promise.race([closing, new Promise((resolve) => (closeTimer = setTimeout(resolve, 10_000)))]);
    clearTimeout(closeTimer);
  }
  const durationMs = Date.now() - started;
  const common = { ...base(cell), durationMs, process: context.process };
  const spawnError = session.startError();
  if (spawnError !== undefined) errorReason = `the server could not be started: ${spawnError}`;
  if (errorReason !== undefined) {
    return { ...common, status: 'error', reason: errorReason, stderr: session.stderrTail().slice(-4000), transcript: state.transcript };
  }
  if (skipReason !== undefined) return { ...common, status: 'skip', reason: skipReason };
  if (!failure && checks === 0) return { ...common, status: 'not-exercised', reason: NOT_EXERCISED };
  if (!failure) return { ...common, status: 'pass' };
  return {
    ...common,
    status: scenario.level === 'must' ? 'fail' : 'warn',
    failure,
    stderr: session.stderrTail().slice(-4000),
    transcript: state.transcript,
  };
}
