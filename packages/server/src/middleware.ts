/**
 * Server middleware (`McpServer.use`): functions that wrap every incoming request once its era is known, and can
 * answer it, rewrite its params or its result, or refuse it. The chain is built only when a middleware is installed:
 * without one the router calls the method directly, allocating nothing for middleware per request.
 */
import { requestTargets, type JsonObject, type ProtocolVersion, type RequestId } from '@wiremcp/protocol';
import type { MessageInfo } from '@wiremcp/jsonrpc';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';

/** What a middleware knows of the request it wraps. Read-only: rewrite params by passing new ones to `next`. */
export interface MiddlewareContext {
  /** The JSON-RPC method (`tools/call`, `resources/read`, `initialize`, …). */
  readonly method: string;
  /** The request id. */
  readonly id: RequestId;
  /**
   * What the request names: the tool of `tools/call`, the prompt of `prompts/get`, the URI of `resources/read` and
   * of (un)subscribe, the task id of a task follow-up, the prompt or template a completion refers to; `undefined`
   * for methods that name nothing or name several things (a listen stream's subscriptions).
   */
  readonly name: string | undefined;
  /** The params as received (frozen or not: never modify them; give `next` new ones instead). */
  readonly params: WireParams;
  /** `_meta` of the params, when present. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** `modern` for a 2026-07-28 request (served statelessly), `legacy` for one served in a session or `initialize`. */
  readonly era: 'legacy' | 'modern';
  /** The revision the request is served in; `undefined` for `initialize` (not negotiated yet). */
  readonly protocolVersion: ProtocolVersion | undefined;
  /** The legacy session id the transport gives (`Mcp-Session-Id` over HTTP); `undefined` for stdio and 2026-07-28. */
  readonly sessionId: string | undefined;
  /** What the transport authenticated (over HTTP with an authenticator: the `Principal`); `undefined` without. */
  readonly principal: unknown;
  /** A stable string naming the principal (the HTTP handler's `principalKey`), when requests are authenticated. */
  readonly principalKey: string | undefined;
  /** The client's network address (HTTP over TCP); `undefined` where there is none (stdio, a Unix socket). */
  readonly clientAddress: string | undefined;
  /** The transport kind the transport declares (`http`); `undefined` for connections that do not say (stdio). */
  readonly transport: string | undefined;
  /** Everything the transport attached (`ctx.transportInfo` of handlers). */
  readonly transportInfo: MessageInfo | undefined;
  /** Aborted when the request is cancelled or its client goes away. */
  readonly signal: AbortSignal;
}

/** Runs the rest of the chain and the method; resolves to its result or rejects with its error. Call it at most once. */
export type MiddlewareNext = (params?: WireParams) => Promise<JsonObject>;

/**
 * A middleware: return (or resolve to) the result to answer — usually what `next()` gave, possibly changed — or
 * throw (reject) to refuse. An `RpcError` is answered as it is; any other error is reported as an internal error
 * and answered `-32603` without its message. Not calling `next` answers the request without running the method.
 */
export type Middleware = (context: MiddlewareContext, next: MiddlewareNext) => JsonObject | Promise<JsonObject>;

const NO_TARGET = undefined;

/** The one name a request acts on, when it names exactly one thing. */
function nameOf(method: string, params: WireParams): string | undefined {
  if (params === undefined) return NO_TARGET;
  const found = requestTargets(method, params);
  return 'targets' in found && found.targets.length === 1 ? found.targets[0]!.name : NO_TARGET;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const UNREAD = Symbol('unread');

/**
 * The context of one request; made only when a middleware is installed. A class rather than an object literal: a
 * literal's `signal` accessor would be a new closure per request, which V8 keeps alive (with the request it holds)
 * across young-generation collections; and `name` (a lookup that allocates) is worked out on first read only, as
 * most middleware (a limiter without per-name rules) never reads it. Both are accessors on the prototype, so a copy
 * made with `{ ...context }` leaves them out: read what you need from the context itself.
 */
export class RequestMiddlewareContext implements MiddlewareContext {
  readonly method: string;
  readonly id: RequestId;
  readonly params: WireParams;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: ProtocolVersion | undefined;
  readonly sessionId: string | undefined;
  readonly principal: unknown;
  readonly principalKey: string | undefined;
  readonly clientAddress: string | undefined;
  readonly transport: string | undefined;
  readonly transportInfo: MessageInfo | undefined;
  readonly #rpc: ServerRequestContext;
  #name: string | undefined | typeof UNREAD = UNREAD;

  constructor(
    method: string,
    params: WireParams,
    rpc: ServerRequestContext,
    era: 'legacy' | 'modern',
    protocolVersion: ProtocolVersion | undefined,
  ) {
    const info = rpc.info;
    const meta = params?._meta;
    this.method = method;
    this.id = rpc.id;
    this.params = params;
    this.meta = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Readonly<Record<string, unknown>>) : undefined;
    this.era = era;
    this.protocolVersion = protocolVersion;
    this.sessionId = stringOf(info?.sessionId);
    this.principal = info?.auth;
    this.principalKey = stringOf(info?.principalKey);
    this.clientAddress = stringOf(info?.clientAddress);
    this.transport = stringOf(info?.transport);
    this.transportInfo = info;
    this.#rpc = rpc;
  }

  get name(): string | undefined {
    const name = this.#name;
    if (name !== UNREAD) return name;
    return (this.#name = nameOf(this.method, this.params));
  }

  get signal(): AbortSignal {
    return this.#rpc.signal;
  }

  /** The context of the same request with other params (a middleware passed them to `next`). */
  rewritten(params: WireParams): RequestMiddlewareContext {
    return new RequestMiddlewareContext(this.method, params, this.#rpc, this.era, this.protocolVersion);
  }
}

/** The context of one request; built only when a middleware is installed. */
export function middlewareContext(
  method: string,
  params: WireParams,
  rpc: ServerRequestContext,
  era: 'legacy' | 'modern',
  protocolVersion: ProtocolVersion | undefined,
): RequestMiddlewareContext {
  return new RequestMiddlewareContext(method, params, rpc, era, protocolVersion);
}

function isResult(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per position in a chain: checks what the middleware there resolved to (one function per position, not per request). */
const resultChecks: Array<(result: unknown) => JsonObject> = [];

function resultCheck(index: number): (result: unknown) => JsonObject {
  return (resultChecks[index] ??= (result) => {
    if (!isResult(result)) throw new Error(`middleware ${index} returned ${typeof result}, not a result object`);
    return result;
  });
}

/** Runs the chain from `index` on; see {@link runMiddleware}. */
function step(
  chain: readonly Middleware[],
  context: RequestMiddlewareContext,
  method: (params: WireParams) => Outcome<JsonObject>,
  index: number,
  params: WireParams,
): Promise<JsonObject> {
  try {
    if (index === chain.length) return Promise.resolve(method(params));
    let called = false;
    const next: MiddlewareNext = (rewritten) => {
      if (called) return Promise.reject(new Error(`middleware ${index} called next() twice`));
      called = true;
      return step(chain, context, method, index + 1, rewritten === undefined ? params : rewritten);
    };
    // A rewritten request is seen as rewritten by the middleware after the one that rewrote it.
    const here = params === context.params ? context : context.rewritten(params);
    const returned = chain[index]!(here, next);
    // A promise, or another thenable, is adopted, then checked; a plain value is checked now.
    if (returned instanceof Promise || typeof (returned as { then?: unknown } | null)?.then === 'function') {
      return Promise.resolve(returned).then(resultCheck(index));
    }
    return Promise.resolve(resultCheck(index)(returned));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `chain` (first installed outermost) around `method`. Each `next` runs once: a second call rejects with
 * an internal error rather than running the method twice. A middleware that returns something
 * other than an object is an internal error too.
 */
export function runMiddleware(
  chain: readonly Middleware[],
  context: RequestMiddlewareContext,
  method: (params: WireParams) => Outcome<JsonObject>,
): Promise<JsonObject> {
  return step(chain, context, method, 0, context.params);
}
