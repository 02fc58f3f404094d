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

/** True when a queued message is, or (a batch) holds, a response with this id. */
function queuedAnswer(state: CellState, id: string): boolean {
  return state.pending.some((entry) => {
    const items = Array.isArray(entry.message) ? entry.message : [entry.message];
    return items.some((item) => isResponse(item) && JSON.stringify(item['id']) === id);
  });
}

/** A pattern for an error response (what a server answers at once to a request it cannot serve). */
function expectsError(pattern: unknown): boolean {
  return isObject(pattern) && 'error' in pattern && !('result' in pattern);
}

/** After this much silence, an expectation of an error response checks that the server still reads (stdio). */
const PING_AFTER_MS = 250;
/** How long an error response may still come once the server has answered a later ping. */
const GRACE_AFTER_PING_MS = 1000;

/**
 * Why the answer to request `id` cannot come any more, if that is known: the server answered that id already
 * (and an earlier step took the answer), or (HTTP) the response to its POST is over.
 */
function cannotCome(state: CellState, id: string | undefined): string | undefined {
  if (id === undefined || queuedAnswer(state, id)) return undefined;
  if (state.answered.has(id)) return `the server already answered id ${id} (an earlier step took that answer): no other answer can come`;
  if (state.ended.has(id)) return `the HTTP response to the POST of request ${id} is over and did not carry its answer`;
  return undefined;
}

/** Options of {@link expectMessage}. */
export interface ExpectOptions {
  readonly timeoutMs: number;
  /** How long the server may take to show a sign of life before the timeout starts (fresh processes). */
  readonly startupTimeoutMs?: number;
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
  if (options.startupTimeoutMs !== undefined) await state.waitUntilStarted(options.startupTimeoutMs);
  const start = Date.now();
  let deadline = start + options.timeoutMs;
  const id = literalId(pattern);
  // stdio: a server that drops input it cannot read (invalid JSON, a request that is no request) never answers;
  // checking that it still reads — it answers a ping sent after the input — tells so after about a second instead
  // of the whole timeout. Only for bytes sent as they are: a well-formed request may take its time to fail.
  const checkReading = !options.isHttp && state.lastSendKind === 'raw' && expectsError(pattern);
  let pingAt = checkReading ? start + Math.min(PING_AFTER_MS, options.timeoutMs / 4) : undefined;
  let pinged = false;
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
    const impossible = cannotCome(state, id);
    if (impossible !== undefined) throw state.mismatchFailure(impossible, pattern, state.closest(pattern));
    if (pingAt !== undefined && Date.now() >= pingAt) {
      pingAt = undefined;
      if (await state.session.answersPing(Math.max(0, deadline - Date.now()))) {
        pinged = true;
        state.note('the server answered a ping sent after the request, but not the request yet');
        deadline = Math.min(deadline, Date.now() + GRACE_AFTER_PING_MS);
      }
      continue;
    }
    if (!(await state.session.log.waitBeyond(state.cursor, pingAt === undefined ? deadline : Math.min(pingAt, deadline)))) {
      if (pingAt !== undefined && Date.now() < deadline) continue;
      await state.ingest();
      const candidate = state.closest(pattern);
      const seen =
        state.pending.length === 0 ? 'nothing unconsumed arrived' : `${state.pending.length} unconsumed message(s) did not match`;
      const waited = Date.now() - start;
      const why = pinged ? `, although it answered a ping sent after the request: it read the request and left it unanswered` : '';
      throw state.mismatchFailure(
        `no message matching the pattern within ${pinged ? waited : options.timeoutMs} ms (${seen}${why})`,
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
