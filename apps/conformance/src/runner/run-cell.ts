/**
 * Runs one cell from start to end: opens the session, replays the steps, checks every message on the way, and
 * always closes the session (the server process is stopped on success, failure, timeout and exceptions).
 */
import { eraOf, revisionMatches } from '../scenario/selectors.js';
import { stepAction } from '../scenario/load-scenarios.js';
import type { Step, StepCondition } from '../scenario/scenario-types.js';
import { isStdioTransport } from '../scenario/scenario-types.js';
import { openSession } from '../session/open-session.js';
import type { RawSession } from '../session/session.js';
import { CellSkipped, CellState, StepFailed } from './cell-state.js';
import type { Cell, CellResult, StepFailure } from './cell-types.js';
import { runStep } from './steps.js';

/** Options of {@link runCell}. */
export interface RunCellOptions {
  /** Hard limit for the whole cell, in ms (a hung server cannot stall the run). Default 60 s. */
  readonly cellTimeoutMs?: number;
  /** Multiplies every expect timeout (slow machines, debuggers). Default 1. */
  readonly timeoutScale?: number;
}

/** A short label for a step: its name, or its action plus the method it sends or expects. */
export function stepLabel(step: Step): string {
  const action = stepAction(step);
  if (step.name) return `${action}: ${step.name}`;
  const body = (step as unknown as Record<string, unknown>)[action];
  if (typeof body === 'object' && body !== null && typeof (body as Record<string, unknown>)['method'] === 'string') {
    return `${action} ${(body as Record<string, string>)['method']}`;
  }
  if (typeof body === 'object' && body !== null && 'id' in body && action === 'expect')
    return `${action} id ${JSON.stringify((body as Record<string, unknown>)['id'])}`;
  return action;
}

function conditionHolds(condition: StepCondition | undefined, cell: Cell): boolean {
  if (!condition) return true;
  if (condition.era && condition.era !== eraOf(cell.revision)) return false;
  if (condition.revisions && !condition.revisions.some((selector) => revisionMatches(selector, cell.revision))) return false;
  if (condition.transports) {
    const family = isStdioTransport(cell.transport.id) ? 'stdio' : 'http';
    if (!condition.transports.includes(cell.transport.id) && !condition.transports.includes(family)) return false;
  }
  if (condition.features && !condition.features.every((feature) => cell.target.features.has(feature))) return false;
  return true;
}

function base(cell: Cell) {
  const { scenario } = cell;
  return {
    scenario: scenario.id,
    area: scenario.area,
    title: scenario.title,
    spec: scenario.spec,
    level: scenario.level,
    file: scenario.file,
    server: cell.target.id,
    transport: cell.transport.id,
    revision: cell.revision,
  };
}

/** The result of a cell that does not run. */
export function skippedResult(cell: Cell, reason: string): CellResult {
  return { ...base(cell), status: 'skip', reason, durationMs: 0 };
}

class CellTimeout extends Error {}

/** Runs a cell and returns its result; never throws. */
export async function runCell(cell: Cell, options: RunCellOptions = {}): Promise<CellResult> {
  if (cell.skip !== undefined) return skippedResult(cell, cell.skip);
  const started = Date.now();
  const { scenario } = cell;
  const era = eraOf(cell.revision);
  const scale = options.timeoutScale ?? 1;
  let session: RawSession | undefined;
  let state: CellState | undefined;
  let failure: StepFailure | undefined;
  let skipReason: string | undefined;
  let current = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const steps = async (): Promise<void> => {
    session = await openSession(cell.transport);
    state = new CellState(session, cell.revision, era, structuredClone(scenario.clientCapabilities), {
      server: cell.target.id,
      transport: cell.transport.id,
      limits: cell.target.limits,
    });
    const env = { isHttp: !isStdioTransport(cell.transport.id), defaultTimeoutMs: Math.round(scenario.timeoutMs * scale) };
    for (const [index, step] of scenario.steps.entries()) {
      current = index;
      if (!conditionHolds(step.when, cell)) continue;
      await runStep(state, env, step);
      await state.ingest();
    }
    current = -1;
    // Whatever already arrived is checked too: a late schema violation is still a violation.
    await state.ingest();
  };
  try {
    const work = steps();
    // If the cell times out, the steps still settle later (the closed session makes them fail): not unhandled.
    work.catch(() => {});
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CellTimeout()), options.cellTimeoutMs ?? 60_000);
      }),
    ]);
  } catch (error) {
    const label =
      current >= 0 ? stepLabel(scenario.steps[current]!) : current === -1 && state ? '(after the last step)' : '(starting the server)';
    if (error instanceof CellSkipped) skipReason = error.reason;
    else if (error instanceof StepFailed) failure = { step: current, stepLabel: label, ...error.failure };
    else if (error instanceof CellTimeout)
      failure = { step: current, stepLabel: label, message: `the cell did not finish within ${options.cellTimeoutMs ?? 60_000} ms` };
    else failure = { step: current, stepLabel: label, message: `harness error: ${(error as Error).stack ?? String(error)}` };
  } finally {
    clearTimeout(timer);
    // Bounded as well: stopping a server can never hold the run (child processes get SIGKILL in any case).
    let closeTimer: ReturnType<typeof setTimeout> | undefined;
    const closing = (session as RawSession | undefined)?.close().catch(() => {});
    await Promise.race([closing, new Promise((resolve) => (closeTimer = setTimeout(resolve, 10_000)))]);
    clearTimeout(closeTimer);
  }
  const durationMs = Date.now() - started;
  if (skipReason !== undefined) return { ...base(cell), status: 'skip', reason: skipReason, durationMs };
  if (!failure) return { ...base(cell), status: 'pass', durationMs };
  const finalState = state as CellState | undefined;
  return {
    ...base(cell),
    status: 'fail',
    durationMs,
    failure,
    stderr: (session as RawSession | undefined)?.stderrTail().slice(-4000) ?? '',
    transcript: finalState?.transcript ?? [],
  };
}
