/**
 * Waiting for messages: `expect` (the first queued or arriving message matching a pattern) and `expectNone`
 * (silence, or at least nothing matching, for a while). See `cell-state.ts` for the queue semantics.
 */
import { match } from '../match/matcher.js';
import type { CellState, Pending } from './cell-state.js';
import { StepFailed } from './cell-state.js';

/** The default of `expectNone`: any response (a message with an id and no method). */
export const ANY_RESPONSE: unknown = { id: { $any: true }, method: { $absent: true } };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The literal id a pattern asks for, when it names one (`{id: 3, ...}`). */
function literalId(pattern: unknown): string | undefined {
  // `{$oneOf: [{id: 3, result: …}, {id: 3, error: …}]}` names id 3 as well.
  if (isObject(pattern) && Array.isArray(pattern['$oneOf']) && Object.keys(pattern).length === 1) {
    const ids = new Set(pattern['$oneOf'].map(literalId));
    return ids.size === 1 ? [...ids][0] : undefined;
  }
  if (!isObject(pattern) || !('id' in pattern)) return undefined;
  const id = pattern['id'];
  return typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
}

function isResponse(message: unknown): message is Record<string, unknown> {
  return isObject(message) && !('method' in message) && ('result' in message || 'error' in message);
}

/** Options of {@link expectMessage}. */
export interface ExpectOptions {
  readonly timeoutMs: number;
  /** HTTP cells: a pattern the status of the carrying response must match. */
  readonly status?: unknown;
  readonly isHttp: boolean;
  /** False: leave the matched message queued (a later expect may consume it). Default true. */
  readonly consume?: boolean;
}

/**
 * Waits for the first message matching `pattern` (already queued, or arriving before the timeout), consumes
 * it, commits its captures and returns it. Fails at once when a response with the pattern's id does not match.
 */
export async function expectMessage(state: CellState, pattern: unknown, options: ExpectOptions): Promise<Pending> {
  const deadline = Date.now() + options.timeoutMs;
  const id = literalId(pattern);
  for (;;) {
    await state.ingest();
    for (const entry of state.pending) {
      const result = match(pattern, entry.message);
      if (result.ok) {
        if (options.isHttp && options.status !== undefined && !match(options.status, entry.status).ok) {
          throw state.mismatchFailure(
            `the message matched but came with HTTP ${entry.status ?? '(none)'} instead of ${JSON.stringify(options.status)}`,
            pattern,
            entry,
          );
        }
        if (options.consume !== false) state.consume(entry);
        Object.assign(state.captures, result.captures);
        return entry;
      }
      if (id !== undefined && isResponse(entry.message) && JSON.stringify(entry.message['id']) === id) {
        throw state.mismatchFailure(`the response with id ${id} does not match the expected pattern`, pattern, entry, result.mismatches);
      }
    }
    if (state.exit) {
      throw state.mismatchFailure(
        `the server exited (code ${state.exit.code}, signal ${state.exit.signal}) before sending a message matching the pattern`,
        pattern,
        state.closest(pattern),
      );
    }
    if (!(await state.session.log.waitBeyond(state.cursor, deadline))) {
      await state.ingest();
      const candidate = state.closest(pattern);
      const seen =
        state.pending.length === 0 ? 'nothing unconsumed arrived' : `${state.pending.length} unconsumed message(s) did not match`;
      throw state.mismatchFailure(
        `no message matching the pattern within ${options.timeoutMs} ms (${seen})`,
        pattern,
        candidate,
        candidate ? (match(pattern, candidate.message) as { mismatches?: never }).mismatches : undefined,
      );
    }
  }
}

/**
 * Passes when, during `ms`, no message matching `pattern` arrives — counting messages that arrived since the
 * last thing was sent, so a fast answer that came in before this step started is not missed.
 */
export async function expectNothing(state: CellState, pattern: unknown, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  const check = (): void => {
    const hit = state.pending.find((entry) => entry.index >= state.lastSendIndex && match(pattern, entry.message).ok);
    if (hit)
      throw new StepFailed({
        message: `a message matching the pattern arrived although none should within ${ms} ms`,
        expected: pattern,
        actual: hit.message,
      });
  };
  await state.ingest();
  check();
  while (await state.session.log.waitBeyond(state.cursor, deadline)) {
    await state.ingest();
    check();
  }
}
