/**
 * The path of every request a server handles, whatever carried it (a connection's peer or a `dispatch`
 * exchange): choose the era from the request itself, check the envelope of that era, then run the method —
 * custom handler, capability gate, built-in handler — and shape the result for the era.
 */
import {
  hasCapability,
  INPUT_REQUIRED_METHODS,
  invalidParams,
  LEGACY_ONLY_METHODS,
  MetaKey,
  methodNotFound,
  MODERN_ONLY_METHODS,
  serverCapabilityPath,
  truncateInput,
  type JsonObject,
  type ProtocolVersion,
} from '@wiremcp/protocol';
import { RequestHandlerContext, type RequestScope } from './handler-context.js';
import type { InputRound } from './input-round.js';
import { InputRounds } from './input-rounds.js';
import { createMethodTable, type AnyBuiltInHandler, type MethodHost, type RequestOrigin } from './method-table.js';
import { isModernMeta, modernScope, stampModernResult } from './modern-envelope.js';
import type { RequestStateSigner } from './request-state.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';
import type { CustomRequestHandler } from './server-options.js';
import type { CacheHint, Implementation } from './types.js';

/** What the router needs from the server. */
export interface RouterHost extends MethodHost {
  readonly info: Implementation;
  readonly versions: readonly ProtocolVersion[];
  readonly modernVersions: readonly ProtocolVersion[];
  readonly requestState: RequestStateSigner;
  cacheHint(method: string): CacheHint | undefined;
  customHandler(method: string): CustomRequestHandler | undefined;
}

const NO_SESSION =
  `No session: send 'initialize' first (legacy revisions), or put "${MetaKey.protocolVersion}" and ` +
  `"${MetaKey.clientCapabilities}" in params._meta (2026-07-28)`;

/** Routes requests; one per server. */
export class RequestRouter {
  readonly #host: RouterHost;
  readonly #table: ReadonlyMap<string, AnyBuiltInHandler>;
  readonly #inputs: InputRounds;

  constructor(host: RouterHost) {
    this.#host = host;
    this.#table = createMethodTable(host);
    this.#inputs = new InputRounds(host.requestState, (method, params, rpc, scope, round, origin) =>
      this.#route(method, params, rpc, scope, round, origin),
    );
  }

  /**
   * Serves one request. A request carrying the 2026-07-28 `_meta` (or for a method only that era has) is served
   * statelessly; `initialize` is the origin's; anything else needs the origin's legacy session (`ping` excepted).
   * Throws or rejects with the error to answer.
   */
  serve(method: string, params: WireParams, rpc: ServerRequestContext, origin: RequestOrigin): Outcome<JsonObject> {
    const meta = params?._meta;
    if (isModernMeta(meta) || MODERN_ONLY_METHODS.has(method)) {
      const host = this.#host;
      const scope = modernScope(meta as Record<string, unknown> | undefined, host.modernVersions, host.versions);
      if (LEGACY_ONLY_METHODS.has(method)) {
        throw methodNotFound(method, { reason: `'${truncateInput(method)}' does not exist in ${scope.protocolVersion}` });
      }
      const cache = host.cacheHint(method);
      const outcome = INPUT_REQUIRED_METHODS.has(method)
        ? this.#inputs.serve(method, params, rpc, scope, origin)
        : this.#route(method, params, rpc, scope, undefined, origin);
      if (outcome instanceof Promise) return outcome.then((result) => stampModernResult(result, host.info, cache));
      return stampModernResult(outcome, host.info, cache);
    }
    if (method === 'initialize') return origin.initialize(params, rpc);
    const session = origin.session;
    if (!session) {
      if (method === 'ping') return {};
      throw invalidParams(NO_SESSION);
    }
    return this.#route(method, params, rpc, session, undefined, origin);
  }

  /** Runs a method for a scope: the custom handler, or the capability gate then the built-in handler. */
  #route(
    method: string,
    params: WireParams,
    rpc: ServerRequestContext,
    scope: RequestScope,
    round: InputRound | undefined,
    origin: RequestOrigin,
  ): Outcome<JsonObject> {
    const host = this.#host;
    const custom = host.customHandler(method);
    if (custom) return custom(params, new RequestHandlerContext(rpc, scope, round)) as Outcome<JsonObject>;
    const gate = serverCapabilityPath(method, scope.protocolVersion);
    if (gate) {
      const session = scope.era === 'legacy' ? origin.session : undefined;
      const caps = session ? session.serverCapabilities : host.capabilitiesFor(scope.protocolVersion);
      if (!hasCapability(caps, gate))
        throw methodNotFound(method, { reason: `the server does not declare the '${gate.join('.')}' capability` });
    }
    const handler = this.#table.get(method);
    if (!handler) throw methodNotFound(method);
    return handler(params, rpc, scope, round, origin) as Outcome<JsonObject>;
  }
}
