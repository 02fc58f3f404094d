/**
 * The path of every request a server handles, whatever carried it (a connection's peer or a `dispatch`
 * exchange): choose the era from the request itself, check the envelope of that era, then run the method —
 * custom handler, capability gate, built-in handler — and shape the result for the era.
 */
import {
  CACHEABLE_METHODS,
  claimsModernEnvelope,
  hasCapability,
  INPUT_REQUIRED_METHODS,
  invalidParams,
  LEGACY_ONLY_METHODS,
  MetaKey,
  METHODS,
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
import { middlewareContext, runMiddleware, type Middleware } from './middleware.js';
import { createMethodTable, type AnyBuiltInHandler, type MethodHost, type RequestOrigin } from './method-table.js';
import { modernScope, serverResultMeta, stampModernResult } from './modern-envelope.js';
import type { RequestStateSigner } from './request-state.js';
import { MODERN_TASK_METHODS } from './task-service.js';
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

/**
 * What the router knows of one method, found with one map lookup per request: the built-in handler, the era
 * rules, and the capability gate of the revision last served with whether the capabilities last checked declare
 * it (recomputed when either changes: a session's capabilities are fixed, the server's change only when its
 * registries do).
 */
class Route {
  gateRevision: ProtocolVersion | undefined;
  gate: readonly string[] | undefined;
  gateCapabilities: unknown;
  gateOpen = false;

  constructor(
    readonly builtIn: AnyBuiltInHandler | undefined,
    /** Unknown in a 2026-07-28 request. */
    readonly legacyOnly: boolean,
    /** 2026-07-28 only: such a request is modern even without the per-request `_meta`. */
    readonly modernOnly: boolean,
    /** May be answered with an input-required result (2026-07-28 MRTR). */
    readonly inputRequired: boolean,
    /** Its complete 2026-07-28 results carry caching hints. */
    readonly cacheable: boolean,
  ) {}
}

/** The route of every method that is neither in the method table nor built in: no gate, no handler. */
const UNKNOWN = new Route(undefined, false, false, false, false);

/** Routes requests; one per server. */
export class RequestRouter {
  readonly #host: RouterHost;
  /** Every method of the method table and every built-in one; nothing is added per request. */
  readonly #routes = new Map<string, Route>();
  readonly #inputs: InputRounds<Route>;
  readonly #resultMeta: Readonly<JsonObject>;
  /**
   * The scope read from the last frozen modern `_meta` (the stdio reader hands every request that repeats the
   * previous one's envelope the same frozen object): the same object again cannot have changed, so the scope
   * stands without reading and checking the envelope again.
   */
  #scopeMeta: unknown;
  #scope: RequestScope | undefined;
  /** Stamps the result of a method without caching hints: one function for every asynchronous outcome. */
  readonly #stampUncached = (result: JsonObject): JsonObject => stampModernResult(result, this.#resultMeta, undefined);
  /** The installed middleware, first installed outermost; `undefined` (not empty) until one is installed. */
  #middleware: Middleware[] | undefined;

  constructor(host: RouterHost) {
    this.#host = host;
    this.#resultMeta = serverResultMeta(host.info);
    const table = createMethodTable(host);
    for (const method of new Set([...Object.keys(METHODS), ...table.keys()])) {
      const route = new Route(
        table.get(method),
        LEGACY_ONLY_METHODS.has(method),
        MODERN_ONLY_METHODS.has(method),
        INPUT_REQUIRED_METHODS.has(method),
        CACHEABLE_METHODS.has(method),
      );
      this.#routes.set(method, route);
    }
    this.#inputs = new InputRounds<Route>(host.requestState, (route, method, params, rpc, scope, round, origin) =>
      this.#route(route, method, params, rpc, scope, round, origin),
    );
  }

  /** Installs a middleware inside the ones installed before (see `McpServer.use`). */
  use(middleware: Middleware): void {
    (this.#middleware ??= []).push(middleware);
  }

  /**
   * Serves one request. A request carrying the 2026-07-28 `_meta` (or for a method only that era has) is served
   * statelessly; `initialize` is the origin's; anything else needs the origin's legacy session (`ping` excepted).
   * Throws or rejects with the error to answer.
   */
  serve(method: string, params: WireParams, rpc: ServerRequestContext, origin: RequestOrigin): Outcome<JsonObject> {
    const route = this.#routes.get(method) ?? UNKNOWN;
    const meta = params?._meta;
    let scope: RequestScope | undefined;
    if (meta !== undefined && meta === this.#scopeMeta) scope = this.#scope;
    else if (route.modernOnly || claimsModernEnvelope(meta)) scope = this.#modernScope(meta);
    if (scope !== undefined) {
      const host = this.#host;
      if (route.legacyOnly && !(host.tasks !== undefined && MODERN_TASK_METHODS.has(method))) {
        throw methodNotFound(method, { reason: `'${truncateInput(method)}' does not exist in ${scope.protocolVersion}` });
      }
      const cache = route.cacheable ? host.cacheHint(method) : undefined;
      const chain = this.#middleware;
      const outcome =
        chain !== undefined
          ? runMiddleware(chain, middlewareContext(method, params, rpc, 'modern', scope.protocolVersion), (rewritten) =>
              this.#modern(route, method, rewritten, rpc, scope, origin),
            )
          : this.#modern(route, method, params, rpc, scope, origin);
      if (outcome instanceof Promise) {
        return outcome.then(cache === undefined ? this.#stampUncached : (result) => stampModernResult(result, this.#resultMeta, cache));
      }
      return stampModernResult(outcome, this.#resultMeta, cache);
    }
    const chain = this.#middleware;
    if (method === 'initialize') {
      if (chain === undefined) return origin.initialize(params, rpc);
      return runMiddleware(chain, middlewareContext(method, params, rpc, 'legacy', undefined), (rewritten) =>
        origin.initialize(rewritten, rpc),
      );
    }
    const session = origin.session;
    if (!session) {
      if (method === 'ping') return {};
      throw invalidParams(NO_SESSION);
    }
    if (chain === undefined) return this.#route(route, method, params, rpc, session, undefined, origin);
    return runMiddleware(chain, middlewareContext(method, params, rpc, 'legacy', session.protocolVersion), (rewritten) =>
      this.#route(route, method, rewritten, rpc, session, undefined, origin),
    );
  }

  /** Runs a 2026-07-28 request: through its input rounds when it may ask for input, else directly. */
  #modern(
    route: Route,
    method: string,
    params: WireParams,
    rpc: ServerRequestContext,
    scope: RequestScope,
    origin: RequestOrigin,
  ): Outcome<JsonObject> {
    return route.inputRequired
      ? this.#inputs.serve(route, method, params, rpc, scope, origin)
      : this.#route(route, method, params, rpc, scope, undefined, origin);
  }

  /** Reads a modern request's scope (see `modernScope`), remembering it for a frozen `_meta`. */
  #modernScope(meta: unknown): RequestScope {
    const host = this.#host;
    const scope = modernScope(meta as Record<string, unknown> | undefined, host.modernVersions, host.versions);
    if (Object.isFrozen(meta)) {
      this.#scopeMeta = meta;
      this.#scope = scope;
    }
    return scope;
  }

  /** Runs a method for a scope: the custom handler, or the capability gate then the built-in handler. */
  #route(
    route: Route,
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
    if (method.startsWith('tasks/')) {
      const tasks = host.tasks;
      if (tasks !== undefined) return tasks.serve(method, params, scope, scope.era === 'legacy' ? origin.session : undefined, rpc);
    }
    const revision = scope.protocolVersion;
    if (route.gateRevision !== revision) {
      route.gateRevision = revision;
      route.gate = serverCapabilityPath(method, revision);
      route.gateCapabilities = undefined;
    }
    const gate = route.gate;
    if (gate) {
      const session = scope.era === 'legacy' ? origin.session : undefined;
      const caps = session ? session.serverCapabilities : host.capabilitiesFor(revision);
      if (route.gateCapabilities !== caps) {
        route.gateCapabilities = caps;
        route.gateOpen = hasCapability(caps, gate);
      }
      if (!route.gateOpen) throw methodNotFound(method, { reason: `the server does not declare the '${gate.join('.')}' capability` });
    }
    const handler = route.builtIn;
    if (!handler) throw methodNotFound(method);
    return handler(params, rpc, scope, round, origin) as Outcome<JsonObject>;
  }
}
