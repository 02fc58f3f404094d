/**
 * Multi round-trip requests (2026-07-28 MRTR) on the server side. A handler of `tools/call`, `prompts/get` or
 * `resources/read` that asks for input (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) without an answer at hand
 * ends the round: the request is answered with an `InputRequiredResult` listing what is missing and an
 * integrity-protected `requestState`, and the client retries the same request with the answers.
 */
import { invalidParams, invalidRequest, type JsonObject } from '@wiremcp/protocol';
import { InputRequiredError, type RequestScope } from './handler-context.js';
import { InputRound } from './input-round.js';
import type { RequestOrigin } from './method-table.js';
import type { RequestStateSigner } from './request-state.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';

/**
 * Runs a method in a scope for one round (the router's capability gates, then the handler); `route` is what the
 * router looked up for the method, handed back to it.
 */
export type RouteOneRound<R = unknown> = (
  route: R,
  method: string,
  params: WireParams,
  rpc: ServerRequestContext,
  scope: RequestScope,
  round: InputRound | undefined,
  origin: RequestOrigin,
) => Outcome<JsonObject>;

/** The answers of a first round: none (shared; a round never writes to its answers). */
const NO_ANSWERS: Readonly<Record<string, unknown>> = Object.freeze({});

/** Serves input-capable requests round by round; one per server. */
export class InputRounds<R = unknown> {
  readonly #signer: RequestStateSigner;
  readonly #route: RouteOneRound<R>;

  constructor(signer: RequestStateSigner, route: RouteOneRound<R>) {
    this.#signer = signer;
    this.#route = route;
  }

  /** Serves one round of an input-capable request: the first one, or a retry carrying answers. */
  serve(
    route: R,
    method: string,
    params: WireParams,
    rpc: ServerRequestContext,
    scope: RequestScope,
    origin: RequestOrigin,
  ): Outcome<JsonObject> {
    if (params?.requestState !== undefined || params?.inputResponses !== undefined) {
      return this.#retry(route, method, params, rpc, scope, origin);
    }
    return this.#round(route, method, params, rpc, scope, origin, new InputRound(NO_ANSWERS));
  }

  /**
   * A retry carrying `inputResponses` and/or `requestState`. A state must verify (integrity, same request,
   * not expired) and brings the answers of earlier rounds; answers are taken only for the keys that state asked
   * for. Without a state (a client that answers up front, or lost it), the answers count as first-round
   * answers: they are the client's to give either way, and a handler asks again for anything missing.
   */
  async #retry(
    route: R,
    method: string,
    params: JsonObject,
    rpc: ServerRequestContext,
    scope: RequestScope,
    origin: RequestOrigin,
  ): Promise<JsonObject> {
    const responses = params.inputResponses;
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
      throw invalidParams('Invalid params: inputResponses must be an object');
    }
    const given = (responses ?? {}) as Record<string, unknown>;
    if (params.requestState === undefined) return this.#round(route, method, params, rpc, scope, origin, new InputRound({ ...given }));
    const state = await this.#signer.verify(params.requestState, method, params);
    const answers: Record<string, unknown> = { ...state.a };
    for (const key of state.k) {
      if (given[key] !== undefined) answers[key] = given[key];
    }
    return this.#round(route, method, params, rpc, scope, origin, new InputRound(answers));
  }

  #round(
    route: R,
    method: string,
    params: WireParams,
    rpc: ServerRequestContext,
    scope: RequestScope,
    origin: RequestOrigin,
    round: InputRound,
  ): Outcome<JsonObject> {
    let outcome: Outcome<JsonObject>;
    try {
      outcome = this.#route(route, method, params, rpc, scope, round, origin);
    } catch (error) {
      return this.#inputOrThrow(method, params, round, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (result) => (round.count > 0 ? this.#inputRequired(method, params, round) : result),
        (error: unknown) => this.#inputOrThrow(method, params, round, error),
      );
    }
    return round.count > 0 ? this.#inputRequired(method, params, round) : outcome;
  }

  /** A handler failed: with inputs missing, the failure is (most likely) its reaction to one; ask for them. */
  #inputOrThrow(method: string, params: WireParams, round: InputRound, error: unknown): Promise<JsonObject> {
    if (round.count > 0) return this.#inputRequired(method, params, round);
    if (error instanceof InputRequiredError) throw invalidRequest('Input was requested outside of an input-capable request');
    throw error;
  }

  async #inputRequired(method: string, params: WireParams, round: InputRound): Promise<JsonObject> {
    const keys = Object.keys(round.requested);
    const requestState = await this.#signer.sign(method, params, keys, round.answers);
    return { resultType: 'input_required', inputRequests: round.requested, requestState };
  }
}
