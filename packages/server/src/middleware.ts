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

/** The context of one request; built only when a middleware is installed. */
export function middlewareContext(
  method: string,
  params: WireParams,
  rpc: ServerRequestContext,
  era: 'legacy' | 'modern',
  protocolVersion: ProtocolVersion | undefined,
): MiddlewareContext {
  const info = rpc.info;
  const meta = params?._meta;
  return {
    method,
    id: rpc.id,
    name: nameOf(method, params),
    params,
    meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Readonly<Record<string, unknown>>) : undefined,
    era,
    protocolVersion,
    sessionId: stringOf(info?.sessionId),
    principal: info?.auth,
    principalKey: stringOf(info?.principalKey),
    clientAddress: stringOf(info?.clientAddress),
    transport: stringOf(info?.transport),
    transportInfo: info,
    get signal() {
      return rpc.signal;
    },
  };
}

function rewrittenContext(context: MiddlewareContext, params: WireParams): MiddlewareContext {
  const meta = params?._meta;
  return Object.create(context, {
    params: { value: params, enumerable: true },
    name: { value: nameOf(context.method, params), enumerable: true },
    meta: { value: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined, enumerable: true },
  }) as MiddlewareContext;
}

function isResult(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Runs `chain` (first installed outermost) around `method`. Each `next` runs once: a second call rejects with
 * an internal error rather than running the method twice. A middleware that returns something
 * other than an object is an internal error too.
 */
export function runMiddleware(
  chain: readonly Middleware[],
  context: MiddlewareContext,
  method: (params: WireParams) => Outcome<JsonObject>,
): Promise<JsonObject> {
  const step = (index: number, params: WireParams): Promise<JsonObject> => {
    if (index === chain.length) {
      try {
        return Promise.resolve(method(params));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    let called = false;
    const next: MiddlewareNext = (rewritten) => {
      if (called) return Promise.reject(new Error(`middleware ${index} called next() twice`));
      called = true;
      return step(index + 1, rewritten === undefined ? params : rewritten);
    };
    // A rewritten request is seen as rewritten by the middleware after the one that rewrote it.
    const here = params === context.params ? context : rewrittenContext(context, params);
    try {
      return Promise.resolve(chain[index]!(here, next)).then((result) => {
        if (!isResult(result)) throw new Error(`middleware ${index} returned ${typeof result}, not a result object`);
        return result;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0, context.params);
}
