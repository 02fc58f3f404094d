/**
 * One connection of a client: the peer, what the handshake negotiated, and the request core — the only place that
 * knows how a request is shaped in each era (modern `_meta`, capability gates, result checks, input rounds).
 */
import { LocalError, MetaKey, type Era, type LogLevel, type RequestId } from '@wiremcp/protocol';
import type { Peer } from '@wiremcp/jsonrpc';
import { clientCapabilitiesFor, missingServerCapability } from './capabilities.js';
import type { Negotiated } from './handshake.js';
import { ListenStream, type ListenOptions } from './listen.js';
import { buildModernMeta, withExtraMeta, withMeta } from './modern-meta.js';
import { requestWithInputs, unknownResultType } from './mrtr.js';
import type { CallOptions, InputHandlers } from './options.js';
import type {
  ClientCapabilities,
  DiscoverResult,
  Implementation,
  JsonObject,
  Meta,
  ResultBase,
  ServerCapabilities,
  SubscriptionFilter,
} from './protocol-types.js';
import type { RequestIdTap } from './request-id-tap.js';

/** What a session needs from its client. */
export interface SessionConfig {
  readonly clientInfo: Implementation;
  readonly handlers: InputHandlers | undefined;
  readonly capabilities: ClientCapabilities | undefined;
  readonly enforceCapabilities: boolean;
  readonly maxInputRounds: number;
  readonly report: (error: unknown) => void;
}

/** A connected, negotiated session. */
export class Session {
  readonly peer: Peer;
  readonly tap: RequestIdTap;
  readonly era: Era;
  readonly protocolVersion: string;
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** The capabilities this client declares in this session. */
  readonly clientCapabilities: ClientCapabilities;
  /** Aborts (with the close error) when the connection closes. */
  readonly closed = new AbortController();
  /** Open listen streams by request id. */
  readonly listens = new Map<RequestId, ListenStream>();
  /** Modern: the `_meta` of every request (rebuilt when the log level changes). */
  meta: Readonly<Meta>;
  readonly #config: SessionConfig;

  constructor(peer: Peer, tap: RequestIdTap, negotiated: Negotiated, config: SessionConfig, logLevel: LogLevel | undefined) {
    this.peer = peer;
    this.tap = tap;
    this.era = negotiated.era;
    this.protocolVersion = negotiated.protocolVersion;
    this.serverCapabilities = negotiated.serverCapabilities;
    this.serverInfo = negotiated.serverInfo;
    this.instructions = negotiated.instructions;
    this.#config = config;
    this.clientCapabilities = clientCapabilitiesFor(config.handlers, negotiated.protocolVersion, config.capabilities);
    this.meta = this.era === 'modern' ? buildModernMeta(this.protocolVersion, this.clientCapabilities, config.clientInfo, logLevel) : {};
  }

  /** Uses a new log level in every later modern request. */
  setLogLevel(level: LogLevel | undefined): void {
    if (this.era === 'modern') this.meta = buildModernMeta(this.protocolVersion, this.clientCapabilities, this.#config.clientInfo, level);
  }

  /** Takes the server's capabilities, instructions and identity from a fresh discover result. */
  applyDiscover(result: DiscoverResult): void {
    if (typeof result.capabilities === 'object' && result.capabilities !== null) this.serverCapabilities = result.capabilities;
    if (typeof result.instructions === 'string') this.instructions = result.instructions;
    const info = result._meta?.[MetaKey.serverInfo];
    if (typeof info === 'object' && info !== null) this.serverInfo = info as Implementation;
  }

  /** The `CAPABILITY_NOT_SUPPORTED` error when the server did not declare what `method` needs. */
  gate(method: string): LocalError | undefined {
    return this.#config.enforceCapabilities ? missingServerCapability(method, this.serverCapabilities, this.protocolVersion) : undefined;
  }

  /** The error for a method that does not exist in this session's era. */
  wrongEra(method: string, alternative: string): LocalError {
    return new LocalError(
      'CAPABILITY_NOT_SUPPORTED',
      `'${method}' does not exist in ${this.protocolVersion} (${this.era} era)${alternative ? `: ${alternative}` : ''}`,
      {
        details: { method, era: this.era, protocolVersion: this.protocolVersion },
      },
    );
  }

  /**
   * Sends one request shaped for the era: modern requests get the shared `_meta`, and their results are checked
   * for `resultType` (absent means complete; anything else is an invalid result here).
   */
  request(method: string, params: JsonObject | undefined, options: CallOptions | undefined): Promise<any> {
    const missing = this.gate(method);
    if (missing) return Promise.reject(missing);
    if (this.era === 'legacy') return this.peer.request(method, withExtraMeta(params, options?.meta), options);
    return this.peer
      .request(method, withMeta(params, this.meta, options?.meta), options)
      .then((result) => checkComplete(method, result as ResultBase));
  }

  /**
   * Sends a request that may need input from the client. Modern: loops over input-required rounds (see mrtr.ts).
   * `onFirstRound` sees a result that came without any retry (only those may be cached).
   */
  requestWithInputs(
    method: string,
    params: JsonObject,
    options: CallOptions | undefined,
    onFirstRound?: (result: ResultBase) => void,
  ): Promise<any> {
    const missing = this.gate(method);
    if (missing) return Promise.reject(missing);
    if (this.era === 'legacy') return this.peer.request(method, withExtraMeta(params, options?.meta), options);
    const send = (roundParams: JsonObject) =>
      this.peer.request(method, withMeta(roundParams, this.meta, options?.meta), options) as Promise<ResultBase>;
    return send(params).then((first) => {
      const type = first.resultType;
      if (type === undefined || type === 'complete') {
        onFirstRound?.(first);
        return first;
      }
      return requestWithInputs({
        method,
        params,
        send,
        first,
        handlers: this.#config.handlers,
        protocolVersion: this.protocolVersion,
        signal: options?.signal,
        closed: this.closed.signal,
        maxRounds: this.#config.maxInputRounds,
      });
    });
  }

  /** Opens a listen stream (modern). */
  listen(filter: SubscriptionFilter, options: ListenOptions): ListenStream {
    const stream = new ListenStream(
      {
        send: (notifications, signal) => {
          this.tap.lastRequestId = undefined;
          const response = this.peer.request('subscriptions/listen', withMeta({ notifications }, this.meta, undefined), {
            signal,
            timeoutMs: 0,
            // Cancellation is sent by the stream itself, only when the client ends it (not when the server did).
            sendCancelledNotification: false,
          });
          return { id: this.tap.lastRequestId ?? `unsent-${unsent++}`, response };
        },
        cancel: (id) => this.peer.notify('notifications/cancelled', { requestId: id, reason: 'Listen stream closed by the client' }),
        release: (id) => {
          if (this.listens.get(id) === stream) this.listens.delete(id);
        },
        report: this.#config.report,
      },
      filter,
      options,
    );
    if (!stream.ended) this.listens.set(stream.id, stream);
    return stream;
  }

  /** Routes a notification that carries a subscription id to its stream; true when one took it. */
  routeToStream(method: string, params: Record<string, unknown> | undefined): ListenStream | undefined {
    const meta = params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[MetaKey.subscriptionId] as RequestId | undefined;
    if (id === undefined) return undefined;
    const stream = this.listens.get(id);
    if (!stream) return undefined;
    if (method === 'notifications/subscriptions/acknowledged') stream.acknowledge(params?.notifications);
    else stream.deliver(method, params);
    return stream;
  }

  /** Handles the server's `notifications/cancelled`: on stdio it ends a listen stream. */
  cancelledByServer(requestId: unknown): void {
    const stream = this.listens.get(requestId as RequestId);
    stream?.cancelledByServer();
  }

  /**
   * Marks the session closed — streams end, handlers' signals abort — and returns why it closed: the transport's
   * `closeReason` when it is a LocalError (`SERVER_EXITED`…), else `CONNECTION_CLOSED`.
   */
  end(byClient: boolean): LocalError {
    const reason = this.tap.closeReason;
    const error = byClient
      ? new LocalError('CONNECTION_CLOSED', 'The client closed the connection')
      : reason instanceof LocalError
        ? reason
        : new LocalError(
            'CONNECTION_CLOSED',
            reason ? `Connection closed: ${reason.message}` : 'The connection closed',
            reason ? { cause: reason } : undefined,
          );
    if (!this.closed.signal.aborted) {
      this.closed.abort(error);
      for (const stream of [...this.listens.values()]) stream.connectionClosed(error);
      this.listens.clear();
    }
    return error;
  }
}

let unsent = 0;

/** Checks the `resultType` of a modern result of a method that cannot ask for input. */
function checkComplete(method: string, result: ResultBase): ResultBase {
  const type = result.resultType;
  if (type === undefined || type === 'complete') return result;
  if (type === 'input_required') {
    throw new LocalError(
      'INVALID_RESULT',
      `'${method}' answered input_required, which only tools/call, prompts/get and resources/read may`,
      {
        details: result,
      },
    );
  }
  throw unknownResultType(method, result);
}
