/**
 * Multi round-trip requests (2026-07-28): `tools/call`, `prompts/get` and `resources/read` may answer
 * `resultType: "input_required"`. The client then gathers the inputs with its handlers (all of one round in
 * parallel) and sends the SAME method and params again — a new JSON-RPC id — adding `inputResponses` under the
 * server's keys and echoing `requestState` byte for byte (and never inventing one). A result with only
 * `requestState` asks the client to come back later (load shedding): it retries after a short backoff.
 */
import { LocalError } from '@wiremcp/protocol';
import { abortError } from '@wiremcp/jsonrpc';
import { runInputRequest } from './input-handlers.js';
import type { InputContext, InputHandlers } from './options.js';
import type { InputRequest, InputResponse, JsonObject, ResultBase } from './types.js';

/** Default bound on rounds of one call. */
export const DEFAULT_MAX_INPUT_ROUNDS = 16;

/** What one MRTR exchange needs. */
export interface InputLoop {
  readonly method: string;
  readonly params: JsonObject;
  /** Sends one round (params already include this round's `inputResponses`/`requestState`). */
  readonly send: (params: JsonObject) => Promise<ResultBase>;
  readonly handlers: InputHandlers | undefined;
  readonly protocolVersion: string;
  /** The caller's signal (aborts the whole exchange, handlers included). */
  readonly signal: AbortSignal | undefined;
  /** Aborts when the connection closes. */
  readonly closed: AbortSignal;
  readonly maxRounds: number;
  /** The answer to the first round when the caller sent it itself (the common single-round case stays cheap). */
  readonly first?: ResultBase;
  /** A `CreateTaskResult` (`resultType: "task"`, tasks extension) ends the exchange too. */
  readonly acceptTask?: boolean;
}

/** The `INVALID_RESULT` error for a `resultType` the client does not know. */
export function unknownResultType(method: string, result: ResultBase): LocalError {
  return new LocalError('INVALID_RESULT', `The result of '${method}' has an unknown resultType ${JSON.stringify(result.resultType)}`, {
    details: result,
  });
}

/** Runs the exchange until a complete result; see the module comment. */
export async function requestWithInputs(loop: InputLoop): Promise<ResultBase> {
  let params = loop.params;
  let waits = 0;
  for (let round = 1; ; round++) {
    const result = round === 1 && loop.first !== undefined ? loop.first : await loop.send(params);
    const type = result.resultType;
    if (type === undefined || type === 'complete' || (type === 'task' && loop.acceptTask === true)) return result;
    if (type !== 'input_required') throw unknownResultType(loop.method, result);
    const { inputRequests, requestState } = result as { inputRequests?: unknown; requestState?: unknown };
    const hasRequests = typeof inputRequests === 'object' && inputRequests !== null && !Array.isArray(inputRequests);
    if ((inputRequests !== undefined && !hasRequests) || (requestState !== undefined && typeof requestState !== 'string')) {
      throw new LocalError('INVALID_RESULT', `The input-required result of '${loop.method}' is malformed`, { details: result });
    }
    if (!hasRequests && requestState === undefined) {
      throw new LocalError('INVALID_RESULT', `The input-required result of '${loop.method}' has neither inputRequests nor requestState`, {
        details: result,
      });
    }
    if (round >= loop.maxRounds) {
      throw new LocalError('PROTOCOL_VIOLATION', `'${loop.method}' still asked for input after ${round} rounds; giving up`, {
        details: { rounds: round, method: loop.method },
      });
    }
    const keys = hasRequests ? Object.keys(inputRequests as object) : [];
    const next: JsonObject = { ...loop.params };
    if (keys.length === 0) {
      // Load shedding: nothing to answer, come back later.
      await delay(Math.min(50 * 2 ** waits++, 1000), loop.signal);
    } else {
      next.inputResponses = await gather(loop, inputRequests as Record<string, InputRequest>, keys);
    }
    if (requestState !== undefined) next.requestState = requestState;
    params = next;
  }
}

/** Runs every input of one round in parallel; rejects with the first failure (or the caller's abort). */
async function gather(loop: InputLoop, requests: Record<string, InputRequest>, keys: string[]): Promise<Record<string, InputResponse>> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(loop.signal?.aborted ? loop.signal.reason : loop.closed.reason);
  if (loop.signal?.aborted || loop.closed.aborted) onAbort();
  loop.signal?.addEventListener('abort', onAbort, { once: true });
  loop.closed.addEventListener('abort', onAbort, { once: true });
  try {
    const origin = { method: loop.method, params: loop.params };
    const answers = keys.map((key) => {
      const context: InputContext = {
        signal: controller.signal,
        era: 'modern',
        protocolVersion: loop.protocolVersion,
        inputKey: key,
        origin,
      };
      return runInputRequest(loop.handlers, requests[key]!, context);
    });
    // A handler that ignores its signal must not keep the call alive after an abort.
    const aborted = new Promise<never>((_, reject) => {
      const fail = (): void => reject(abortError(controller.signal.reason));
      if (controller.signal.aborted) fail();
      else controller.signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => {});
    const values = await Promise.race([Promise.all(answers), aborted]);
    const responses: Record<string, InputResponse> = {};
    keys.forEach((key, index) => (responses[key] = values[index]!));
    return responses;
  } catch (error) {
    // The first failure ends the round; the other handlers are told to stop.
    controller.abort(error);
    throw error;
  } finally {
    loop.signal?.removeEventListener('abort', onAbort);
    loop.closed.removeEventListener('abort', onAbort);
  }
}

/** Waits `ms`, or rejects with `REQUEST_CANCELLED` when `signal` aborts first. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
