/**
 * One connection of a client: the peer, what the handshake negotiated, and the request core — the only place that
 * knows how a request is shaped in each era (modern `_meta`, capability gates, result checks, input rounds).
 */
import { LocalError, MetaKey, type ClientRequestMap, type Era, type JsonObject, type LogLevel, type RequestId } from '@wiremcp/protocol';
import { connectionClosedError, observeOutcome, startOperation, startSession, type Instrumentation } from '@wiremcp/jsonrpc';
import { clientCapabilitiesFor, missingServerCapability } from './capabilities.js';
import type { Negotiated } from './handshake.js';
import { ListenStream, type ListenOptions } from './listen.js';
import { buildModernMeta, withExtraMeta, withMeta } from './modern-meta.js';
import { requestWithInputs, unknownResultType } from './mrtr.js';
import { TASKS_EXTENSION } from './task-shapes.js';
import type { CallOptions, ElicitationOptions, InputHandlers } from './options.js';
import type {
  ClientCapabilities,
  ClientPeer,
  ClientRequestResult,
  DiscoverResult,
  Implementation,
  Meta,
  ResultBase,
  ServerCapabilities,
  SubscriptionFilter,
} from './types.js';

/**
 * What a session's requests resolve with: a spec method's complete result (a modern input-required answer is
 * either resolved by the input rounds or refused), or any JSON object for other methods.
 */
export type SessionResult<M extends string> = ClientRequestResult<M>;

/** What a session needs from its client. */
export interface SessionConfig {
  readonly clientInfo: Implementation;
  readonly handlers: InputHandlers | undefined;
  readonly capabilities: ClientCapabilities | undefined;
  /** Elicitation modes (URL mode is declared only when opted in). */
  readonly elicitation?: ElicitationOptions;
  readonly enforceCapabilities: boolean;
  readonly maxInputRounds: number;
  readonly report: (error: unknown) => void;
  /** Observes every request the session sends (tracing, metrics). */
  readonly instrumentation?: Instrumentation;
}

/** How many allowed methods a session remembers (the spec has a few dozen). */
const MAX_ALLOWED_CACHED = 128;

/** A connected, negotiated session. */
export class Session {
  readonly peer: ClientPeer;
  readonly era: Era;
  readonly protocolVersion: string;
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
  #serverCapabilities: ServerCapabilities;
  /** Methods the server's capabilities were found to allow (cleared when they change): one lookup per request. */
  readonly #allowed = new Set<string>();

  constructor(peer: ClientPeer, negotiated: Negotiated, config: SessionConfig, logLevel: LogLevel | undefined) {
    this.peer = peer;
    this.era = negotiated.era;
    this.protocolVersion = negotiated.protocolVersion;
    this.#serverCapabilities = negotiated.serverCapabilities;
    this.serverInfo = negotiated.serverInfo;
    this.instructions = negotiated.instructions;
    this.#config = config;
    this.clientCapabilities = clientCapabilitiesFor(config.handlers, negotiated.protocolVersion, config.capabilities, config.elicitation);
    this.meta = this.era === 'modern' ? buildModernMeta(this.protocolVersion, this.clientCapabilities, config.clientInfo, logLevel) : {};
    if (config.instrumentation !== undefined) {
      const sessionId = this.sessionId;
      const end = startSession(
        config.instrumentation,
        { side: 'client', protocolVersion: this.protocolVersion, ...(sessionId === undefined ? {} : { sessionId }) },
        config.report,
      );
      this.closed.signal.addEventListener('abort', end, { once: true });
    }
  }

  /** The server's capabilities (from the handshake, refreshed by discover). */
  get serverCapabilities(): ServerCapabilities {
    return this.#serverCapabilities;
  }
  set serverCapabilities(capabilities: ServerCapabilities) {
    this.#serverCapabilities = capabilities;
    this.#allowed.clear();
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
    if (!this.#config.enforceCapabilities || this.#allowed.has(method)) return undefined;
    const missing = missingServerCapability(method, this.#serverCapabilities, this.protocolVersion);
    // Bounded: `request()` takes any method name, and a caller inventing names must not grow it without end.
    if (missing === undefined && this.#allowed.size < MAX_ALLOWED_CACHED) this.#allowed.add(method);
    return missing;
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
  request<M extends string>(method: M, params: JsonObject | undefined, options: CallOptions | undefined): Promise<SessionResult<M>> {
    const missing = this.gate(method);
    if (missing) return Promise.reject(missing);
    if (this.era === 'legacy') return this.#send(method, withExtraMeta(params, options?.meta), options);
    return this.#send(method, withMeta(params, this.meta, options?.meta), options).then((result) => checkComplete(method, result));
  }

  /** The one place a session's requests reach the peer: the wire decides what comes back, typed by the method. */
  #send<M extends string>(method: M, params: JsonObject | undefined, options: CallOptions | undefined): Promise<SessionResult<M>> {
    const instrumentation = this.#config.instrumentation;
    if (instrumentation !== undefined) return this.#sendObserved(instrumentation, method, params, options);
    return (this.peer as unknown as UntypedPeer).request(method, params, options) as Promise<SessionResult<M>>;
  }

  /** {@link #send} observed: the observer's `_meta` keys (trace context) join the request's, the caller's win. */
  #sendObserved<M extends string>(
    instrumentation: Instrumentation,
    method: M,
    params: JsonObject | undefined,
    options: CallOptions | undefined,
  ): Promise<SessionResult<M>> {
    const report = this.#config.report;
    const operation = {
      side: 'client',
      kind: 'request',
      method,
      params,
      protocolVersion: this.protocolVersion,
      sessionId: this.sessionId,
    } as const;
    const observer = startOperation(instrumentation, operation, report);
    const peer = this.peer as unknown as UntypedPeer;
    if (observer === undefined) return peer.request(method, params, options) as Promise<SessionResult<M>>;
    const added = observer.meta;
    const sent = added === undefined ? params : { ...params, _meta: { ...added, ...(params?._meta as JsonObject | undefined) } };
    return observeOutcome(observer, () => peer.request(method, sent, options), report) as Promise<SessionResult<M>>;
  }

  /** The transport's session id (legacy Streamable HTTP), when it has one. */
  get sessionId(): string | undefined {
    const id = (this.peer.transport as { sessionId?: unknown } | undefined)?.sessionId;
    return typeof id === 'string' ? id : undefined;
  }

  /**
   * Sends a request that may need input from the client. Modern: loops over input-required rounds (see mrtr.ts).
   * `onFirstRound` sees a result that came without any retry (only those may be cached). `finish` (a check of the
   * complete result, e.g. output validation) runs in the same promise step as the era's own checks: one promise
   * less per call than chaining it after.
   */
  requestWithInputs<M extends string>(
    method: M,
    params: JsonObject,
    options: CallOptions | undefined,
    onFirstRound?: (result: ResultBase) => void,
    finish?: (result: SessionResult<M>) => SessionResult<M> | Promise<SessionResult<M>>,
  ): Promise<SessionResult<M>> {
    const missing = this.gate(method);
    if (missing) return Promise.reject(missing);
    if (this.era === 'legacy') {
      const sent = this.#send(method, withExtraMeta(params, options?.meta), options);
      return finish === undefined ? sent : sent.then(finish);
    }
    const sent = this.#send(method, withMeta(params, this.meta, options?.meta), options) as Promise<ResultBase>;
    return sent.then((first) => {
      const type = first.resultType;
      if (type === undefined || type === 'complete') {
        onFirstRound?.(first);
        return finish === undefined ? (first as SessionResult<M>) : finish(first as SessionResult<M>);
      }
      // Only now: the closure that sends the later rounds (most requests never need one).
      const rounds = requestWithInputs({
        method,
        params,
        send: (roundParams) => this.#send(method, withMeta(roundParams, this.meta, options?.meta), options) as Promise<ResultBase>,
        first,
        handlers: this.#config.handlers,
        protocolVersion: this.protocolVersion,
        signal: options?.signal,
        closed: this.closed.signal,
        maxRounds: this.#config.maxInputRounds,
      }) as Promise<SessionResult<M>>;
      return finish === undefined ? rounds : rounds.then(finish);
    });
  }

  /** The client's input handlers (sampling, elicitation, roots). */
  get inputHandlers(): InputHandlers | undefined {
    return this.#config.handlers;
  }

  /**
   * Sends a request that may become a task. Modern: the request declares the `io.modelcontextprotocol/tasks`
   * extension (only this request: others keep the session's capabilities), its input rounds are served, and the
   * answer may be a `CreateTaskResult` (`resultType: "task"`). Legacy: sent as it is (`params.task` asks for one).
   */
  requestAllowingTask(method: string, params: JsonObject, options: CallOptions | undefined): Promise<ResultBase> {
    const missing = this.gate(method);
    if (missing) return Promise.reject(missing);
    if (this.era === 'legacy') return this.#send(method, withExtraMeta(params, options?.meta), options) as Promise<ResultBase>;
    const caps = this.clientCapabilities as Record<string, unknown>;
    const extensions = { ...(caps.extensions as Record<string, unknown> | undefined), [TASKS_EXTENSION]: {} };
    const meta = { ...this.meta, [MetaKey.clientCapabilities]: { ...caps, extensions } };
    return requestWithInputs({
      method,
      params,
      send: (roundParams) => this.#send(method, withMeta(roundParams, meta, options?.meta), options) as Promise<ResultBase>,
      handlers: this.#config.handlers,
      protocolVersion: this.protocolVersion,
      signal: options?.signal,
      closed: this.closed.signal,
      maxRounds: this.#config.maxInputRounds,
      acceptTask: true,
    });
  }

  /** Opens a listen stream (modern). */
  listen(filter: SubscriptionFilter, options: ListenOptions): ListenStream {
    const stream = new ListenStream(
      {
        send: (notifications, signal) => {
          const { id, result } = this.peer.startRequest(
            'subscriptions/listen',
            withMeta({ notifications }, this.meta, undefined) as unknown as ClientRequestMap['subscriptions/listen']['params'],
            // Cancellation is sent by the stream itself, only when the client ends it (not when the server did).
            { signal, timeoutMs: 0, sendCancelledNotification: false },
          );
          return { id, response: result };
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
    const error = byClient
      ? new LocalError('CONNECTION_CLOSED', 'The client closed the connection')
      : connectionClosedError(this.peer.closeReason);
    if (!this.closed.signal.aborted) {
      this.closed.abort(error);
      for (const stream of [...this.listens.values()]) stream.connectionClosed(error);
      this.listens.clear();
    }
    return error;
  }
}

/** The peer seen untyped: a session sends whatever method its caller names. */
interface UntypedPeer {
  request(method: string, params: JsonObject | undefined, options: CallOptions | undefined): Promise<unknown>;
}

/** Checks the `resultType` of a modern result of a method that cannot ask for input. */
function checkComplete<T>(method: string, result: T): T {
  const type = (result as ResultBase).resultType;
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
  throw unknownResultType(method, result as ResultBase);
}
