/**
 * Serving one inbound JSON-RPC message without a peer or a connection: what a stateless transport (2026-07-28
 * Streamable HTTP: one POST, one request) calls per message. See `McpServer.dispatch` for the contract.
 */
import {
  LocalError,
  type JsonObject,
  type ProtocolVersion,
  type RequestId,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  type ServerNotificationMap,
  type ServerRequestMap,
} from '@wiremcp/protocol';
import {
  batchRefused,
  describeInvalid,
  errorObjectFor,
  isBrokenResponse,
  messageKind,
  MessageKind,
  RequestContext,
  type ContextHost,
  type InternalErrorReporter,
  type MessageInfo,
} from '@wiremcp/jsonrpc';
import { noLegacyRevision } from './legacy-session.js';
import type { RequestOrigin } from './method-table.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';

/** What `dispatch` is given besides the message: where it came from, when to give up, where notifications go. */
export interface DispatchExchange {
  /** What the transport attaches to the request (HTTP headers, auth); handlers see it as `ctx.transportInfo`. */
  readonly info?: MessageInfo;
  /** Aborting it cancels the request: the handler's `ctx.signal` aborts, nothing more is sent, no response. */
  readonly signal?: AbortSignal;
  /**
   * The same cancellation as `signal`, for a transport that learns of it from a callback of its own: called once,
   * synchronously, before the handler runs, with the function that cancels the request (calling it has the effect
   * of `signal` aborting; once the answer is produced it does nothing). It costs no `AbortController` and no
   * event listener per request, which is what a transport serving thousands of requests a second wants.
   */
  readonly cancellable?: (cancel: (reason: unknown) => void) => void;
  /**
   * Receives the notifications related to the request (progress, `notifications/message`, a listen stream's
   * acknowledgement and notifications), in order, before the response. A returned promise is waited for before
   * the response is produced; a rejected one is reported as an internal error.
   */
  notify(message: RpcNotification): void | Promise<void>;
}

/** What dispatching needs from the server. */
export interface DispatchHost {
  readonly router: { serve(method: string, params: WireParams, rpc: ServerRequestContext, origin: RequestOrigin): Outcome<JsonObject> };
  readonly report: InternalErrorReporter;
}

const NOTHING: Promise<undefined> = Promise.resolve(undefined);

/**
 * The context host of one exchange: notifications go to `exchange.notify` until the exchange ends (answered or
 * aborted), then nowhere; requests to the client are refused (2026-07-28 asks for input through
 * `InputRequiredResult`, never on a response stream).
 */
class ExchangeHost implements ContextHost {
  readonly #exchange: DispatchExchange;
  #open = true;
  #last: Promise<void> | undefined;

  constructor(exchange: DispatchExchange) {
    this.#exchange = exchange;
  }

  notify(method: string, params: Record<string, unknown> | undefined): Promise<void> {
    if (!this.#open) return Promise.reject(new LocalError('CONNECTION_CLOSED', `Cannot send '${method}': the exchange has ended`));
    const message: RpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    let sent: void | Promise<void>;
    try {
      sent = this.#exchange.notify(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if (sent === undefined) return Promise.resolve();
    this.#last = sent;
    return sent;
  }

  request(method: string): Promise<unknown> {
    return Promise.reject(
      new LocalError('NOT_CONNECTED', `Cannot send '${method}': a dispatched request cannot make requests to the client`),
    );
  }

  /** Ends the exchange; resolves once the last notification handed over has been taken. */
  end(report: InternalErrorReporter, request: { method: string; id: RequestId }): Promise<void> | undefined {
    this.#open = false;
    return this.#last?.then(undefined, (error: unknown) => report(error, { method: request.method, id: request.id }));
  }

  /** Ends the exchange without waiting (it was aborted). */
  abandon(): void {
    this.#open = false;
  }
}

/** The origin of dispatched requests: no session can be held, listen streams end with their exchange. */
export function statelessOrigin(modernVersions: readonly ProtocolVersion[]): RequestOrigin {
  return {
    session: undefined,
    listens: undefined,
    initialize: (params) => {
      throw noLegacyRevision(modernVersions, params?.protocolVersion, 'this endpoint');
    },
  };
}

/** Serves one message; see `McpServer.dispatch`. */
export function dispatch(
  host: DispatchHost,
  origin: RequestOrigin,
  message: unknown,
  exchange: DispatchExchange,
): Promise<RpcResponse | undefined> {
  if (Array.isArray(message)) return Promise.resolve(batchRefused());
  const kind = messageKind(message);
  if (kind === MessageKind.Request) return serveRequest(host, origin, message as RpcRequest, exchange);
  // Responses are not expected here, and a broken one is not answered (two broken peers could bounce errors forever).
  if (kind !== MessageKind.Invalid || isBrokenResponse(message)) return NOTHING;
  const invalid = describeInvalid(message);
  return Promise.resolve({ jsonrpc: '2.0', id: invalid.id, error: { code: invalid.code, message: invalid.message } });
}

async function serveRequest(
  host: DispatchHost,
  origin: RequestOrigin,
  request: RpcRequest,
  exchange: DispatchExchange,
): Promise<RpcResponse | undefined> {
  // A transport that offers `cancellable` is not asked for a signal (reading it may make one).
  const signal = exchange.cancellable === undefined ? exchange.signal : undefined;
  if (signal?.aborted) return undefined;
  const { id, method } = request;
  const exchangeHost = new ExchangeHost(exchange);
  const rpc: ServerRequestContext = new RequestContext<ServerRequestMap, ServerNotificationMap>(
    exchangeHost,
    id,
    method,
    request.params,
    exchange.info,
    undefined,
  );
  // One cancellation, whichever way the transport signals it (`cancellable`, or `signal` aborting): the handler's
  // context is cancelled and the awaited answer woken with `undefined`; once the answer is in, it does nothing.
  let wake: ((response: undefined) => void) | undefined;
  let answered = false;
  const cancel = (reason: unknown): void => {
    if (answered || rpc.cancelled) return;
    rpc.cancel(reason);
    exchangeHost.abandon();
    wake?.(undefined);
  };
  let onAbort: (() => void) | undefined;
  if (exchange.cancellable !== undefined) {
    exchange.cancellable(cancel);
    if (rpc.cancelled) return undefined;
  } else if (signal !== undefined) {
    onAbort = () => cancel(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  let response: RpcResponse | undefined;
  let outcome: Outcome<JsonObject>;
  try {
    outcome = host.router.serve(method, request.params, rpc, origin);
  } catch (error) {
    outcome = Promise.reject(error);
  }
  if (exchange.cancellable === undefined && signal === undefined) {
    response = await settle(host, rpc, outcome);
  } else {
    // One promise settled by whichever comes first, the answer or the cancellation (no race of two promises).
    response = await new Promise<RpcResponse | undefined>((resolve) => {
      wake = resolve;
      if (rpc.cancelled) resolve(undefined);
      else settleInto(host, rpc, outcome, resolve);
    });
    answered = true;
    if (onAbort !== undefined) signal!.removeEventListener('abort', onAbort);
  }
  if (response === undefined || rpc.cancelled) return undefined;
  const flushed = exchangeHost.end(host.report, rpc);
  if (flushed) await flushed;
  return rpc.cancelled ? undefined : response;
}

/**
 * {@link settle} for the cancellable path, handing the response to `resolve` (the promise the cancellation also
 * settles) instead of returning one of its own: no async frame and no promise per request beyond the outcome's
 * continuation. A plain result is handed over at once.
 */
function settleInto(
  host: DispatchHost,
  rpc: ServerRequestContext,
  outcome: Outcome<JsonObject>,
  resolve: (response: RpcResponse | undefined) => void,
): void {
  if (typeof (outcome as { then?: unknown } | undefined)?.then !== 'function') {
    resolve(rpc.cancelled ? undefined : { jsonrpc: '2.0', id: rpc.id, result: (outcome as JsonObject | undefined) ?? {} });
    return;
  }
  Promise.resolve(outcome).then(
    (result) => resolve(rpc.cancelled ? undefined : { jsonrpc: '2.0', id: rpc.id, result: result ?? {} }),
    (error: unknown) => resolve(rpc.cancelled ? undefined : { jsonrpc: '2.0', id: rpc.id, error: errorObjectFor(error, host.report, rpc) }),
  );
}

/** The response for a handler's outcome; `undefined` when the request was cancelled meanwhile. */
async function settle(host: DispatchHost, rpc: ServerRequestContext, outcome: Outcome<JsonObject>): Promise<RpcResponse | undefined> {
  try {
    const result = await outcome;
    return rpc.cancelled ? undefined : { jsonrpc: '2.0', id: rpc.id, result: result ?? {} };
  } catch (error) {
    return rpc.cancelled ? undefined : { jsonrpc: '2.0', id: rpc.id, error: errorObjectFor(error, host.report, rpc) };
  }
}
