/**
 * The transport of one legacy Streamable HTTP session, as the server's peer sees it: messages in from the
 * session's POSTs, and every message out routed to exactly one stream (§Multiple Connections) —
 * - a response to the POST that carried its request (JSON, or the last event of that POST's stream);
 * - a message related to a request (progress, a log, a sampling or elicitation request) to that request's POST,
 *   switching its answer to SSE, and to the standalone GET stream when that POST cannot stream any more;
 * - anything else (list changes, server-wide logs) to the standalone GET stream, or to a bounded queue the next
 *   GET receives.
 */
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';
import { LocalError, type RequestId, type RpcMessage } from '@wiremcp/protocol';
import type { EventStore } from '../event-store.js';
import { retryAfterHeaders } from '../responses.js';
import { tagRequestId, untagRequestId, type BusMessage, type HandoverMessage } from '../session-bus.js';
import type { SseConnection, SsePool } from '../sse-connection.js';
import { LegacyStream, type StreamHost, type StreamInfo } from './legacy-stream.js';
import type { PostExchange } from './post-exchange.js';
import { PendingExchanges } from './pending-exchanges.js';
import type { HttpReply } from '../adapter-contract.js';
import type { RemoteStream } from './remote-stream.js';
import { resumeStream, streamUnknown, type ResumableSession } from './stream-resumption.js';
import { release, releasedMessage, StandaloneTakeover } from './standalone-handover.js';
import {
  cutByShutdown,
  RELAYED,
  routeIncoming,
  sessionEnded,
  type SessionTransportBus,
  type SessionTransportHost,
} from './session-transport-host.js';

export type { SessionTransportBus, SessionTransportHost } from './session-transport-host.js';

const RESOLVED = Promise.resolve();

/** See the module comment. */
export class SessionTransport implements Transport, StreamHost {
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;
  readonly #host: SessionTransportHost;
  readonly #exchanges = new PendingExchanges();
  #streams: Map<string, LegacyStream> | undefined;
  #standalone: LegacyStream | undefined;
  /** Streams other processes run, resumed here for the client (see `RemoteStream`). */
  #remotes: Set<RemoteStream> | undefined;
  #queue: string[] | undefined;
  /** The standalone stream of another process being taken over here (see `standalone-handover.ts`). */
  #takeover: StandaloneTakeover | undefined;
  /** Ends a drain's wait for the standalone stream to be taken over. */
  #onReleased: (() => void) | undefined;
  #connections = 0;
  #closed = false;

  constructor(host: SessionTransportHost) {
    this.#host = host;
  }

  get sessionId(): string {
    return this.#host.sessionId;
  }
  get store(): EventStore | undefined {
    return this.#host.store;
  }
  get report(): (error: unknown) => void {
    return this.#host.report;
  }
  get bus(): SessionTransportBus | undefined {
    return this.#host.bus;
  }

  /**
   * True while a POST awaits its answer, a stream is connected, or another process follows one of its streams for a
   * client: the session is in use, not idle.
   */
  get busy(): boolean {
    if (this.#exchanges.size > 0 || this.#connections > 0) return true;
    for (const stream of this.#streams?.values() ?? []) if (stream.followed) return true;
    return false;
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  /** True when a request with this id is still being answered in this session. */
  hasRequest(id: RequestId): boolean {
    return this.#exchanges.has(id);
  }

  /** Routes the answers to the requests of `exchange` to it. */
  register(exchange: PostExchange): void {
    this.#exchanges.register(exchange);
  }

  /**
   * Hands a message of a POST to the server; a client's cancellation ends the cancelled request's POST. With a bus,
   * answers to another process's requests, and cancellations of requests not running here, go to the other
   * processes too.
   */
  deliver(message: unknown, info: MessageInfo): void {
    const bus = this.#host.bus;
    const local = bus === undefined ? message : routeIncoming(message, bus, this.#host.sessionId, (id) => this.#exchanges.has(id));
    if (local !== undefined) this.onmessage?.(local, info);
    this.#cancelExchange(message);
  }

  /** A message another process handed over on the bus (see {@link SessionBus}). */
  forwarded(message: BusMessage): void {
    if (this.#closed) return;
    if (message.kind === 'follow' || message.kind === 'unfollow') {
      const stream = this.#streams?.get(message.streamId);
      if (message.kind === 'unfollow') stream?.unfollow(message.origin);
      else if (stream !== undefined) stream.follow(message.origin);
      else this.#host.bus?.publish(streamUnknown(this.#host.bus.origin, message));
      return;
    }
    if (message.kind === 'handover' || message.kind === 'released') {
      this.#handover(message);
      return;
    }
    if (message.kind === 'stream') {
      for (const remote of this.#remotes ?? []) if (remote.streamId === message.streamId) remote.received(message);
      return;
    }
    if (message.kind === 'standalone') {
      if (this.#standalone !== undefined && (this.#standalone.connected || this.#host.store !== undefined))
        this.#standalone.send(message.json);
      else if (this.#takeover?.hearsOthers === true) this.#takeover.keep(message.json);
      return;
    }
    if (message.kind !== 'deliver') return;
    let parsed: { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    try {
      parsed = JSON.parse(message.json) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.method === undefined) {
      const tag = untagRequestId(parsed.id);
      if (tag !== undefined && tag.origin === this.#host.bus?.origin) this.onmessage?.({ ...parsed, id: tag.id });
    } else if (parsed.method === 'notifications/cancelled' && this.#exchanges.has(parsed.params?.requestId as RequestId)) {
      this.onmessage?.(parsed);
      this.#cancelExchange(parsed);
    }
  }

  #cancelExchange(message: unknown): void {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    if (m.method !== 'notifications/cancelled') return;
    const id = m.params?.requestId as RequestId | undefined;
    const exchange = id === undefined ? undefined : this.#exchanges.get(id);
    if (exchange !== undefined) {
      this.#exchanges.delete(id!);
      exchange.cancelled(id!);
    }
  }

  send(message: RpcMessage | RpcMessage[], options?: SendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new LocalError('NOT_CONNECTED', 'The HTTP session has ended'));
    const bus = this.#host.bus;
    const request = message as { method?: unknown; id?: RequestId | null };
    if (
      bus !== undefined &&
      !Array.isArray(message) &&
      request.method !== undefined &&
      typeof request.id !== 'object' &&
      request.id !== undefined
    ) {
      // A request to the client: its answer may reach another process, which routes it back by this tag.
      message = { ...message, id: tagRequestId(bus.origin, request.id) } as RpcMessage;
    }
    const json = JSON.stringify(message);
    if (Array.isArray(message)) {
      const ids = message
        .map((response) => (response as { id?: RequestId }).id)
        .filter((id): id is RequestId => id !== undefined && id !== null);
      const exchange = ids.length > 0 ? this.#exchanges.get(ids[0]!) : undefined;
      for (const id of ids) this.#exchanges.delete(id);
      exchange?.respond(json, ids);
      return RESOLVED;
    }
    const m = message as { method?: unknown; id?: RequestId | null };
    if (m.method === undefined) {
      const id = m.id;
      const exchange = id === undefined || id === null ? undefined : this.#exchanges.get(id);
      if (exchange !== undefined) {
        this.#exchanges.delete(id!);
        exchange.respond(json, [id!], retryAfterHeaders((message as { error?: { code: number; data?: unknown } }).error));
      } else if (id === null) this.#toStandalone(json);
      return RESOLVED;
    }
    const related = options?.relatedRequestId;
    const stream = related === undefined ? undefined : this.#exchanges.get(related)?.stream();
    if (stream !== undefined) stream.send(json);
    else this.#toStandalone(json, related === undefined ? m.method : undefined);
    return RESOLVED;
  }

  /** Opens the stream of a POST carrying the requests `ids` (the {@link PostExchange} host). */
  openStream(ids: readonly RequestId[]): { stream: LegacyStream; connection: SseConnection } | undefined {
    const connection = this.#openConnection();
    if (connection === undefined) return undefined;
    const stream = this.#newStream('request', ids);
    stream.attach(connection);
    if (this.#host.primes()) stream.prime(this.#host.retryMs);
    return { stream, connection };
  }

  /** Why a new stream cannot be opened now (`undefined` when it can). */
  streamRefusal(): { status: number; message: string } | undefined {
    if (this.#closed) return { status: 404, message: 'Session not found: the session ended' };
    if (this.#connections >= this.#host.maxStreamsPerSession) return { status: 429, message: 'Too many open streams in this session' };
    if (!this.#host.pool.hasRoom()) return { status: 503, message: 'Too many open streams; try again later' };
    return undefined;
  }

  /** True while the standalone GET stream has a connection. */
  get standaloneConnected(): boolean {
    return this.#standalone?.connected === true;
  }

  /**
   * True while this process holds the session's standalone stream (connected, or kept resumable in the store), or
   * takes it over and hears the other processes' events for it.
   */
  get holdsStandalone(): boolean {
    const standalone = this.#standalone;
    return (standalone !== undefined && (standalone.connected || this.#host.store !== undefined)) || this.#takeover?.hearsOthers === true;
  }

  /**
   * Draining, the session living on elsewhere: ends the standalone stream's connection, so that its client resumes
   * on another process, and resolves once that process took the stream over (this copy stores its events until
   * then), or after `timeoutMs`. At once when no client is connected to it.
   */
  handOverStandalone(timeoutMs: number): Promise<void> {
    const standalone = this.#standalone;
    if (this.#host.bus === undefined || this.#host.store === undefined || standalone === undefined || !standalone.connected)
      return RESOLVED;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#onReleased?.(), timeoutMs);
      this.#onReleased = () => (clearTimeout(timer), (this.#onReleased = undefined), resolve());
      standalone.disconnect();
    });
  }

  /** Opens the standalone GET stream (the caller checked {@link streamRefusal}); queued messages go out first. */
  openStandalone(): SseConnection {
    const connection = this.#openConnection()!;
    this.#standalone?.finish();
    const stream = this.#newStream('standalone');
    this.#standalone = stream;
    stream.attach(connection);
    if (this.#host.primes()) stream.prime(this.#host.retryMs);
    const queue = this.#queue;
    this.#queue = undefined;
    for (const json of queue ?? []) stream.send(json);
    return connection;
  }

  /** Closes the connection of the standalone stream, not the stream (SEP-1699 polling). */
  disconnectStandalone(): void {
    this.#standalone?.disconnect();
  }

  /**
   * Resumes the stream named by `lastEventId` on a new connection (the caller checked {@link streamRefusal}); see
   * {@link resumeStream}. Resolves with the connection's response, or `undefined` when the event id is unknown or
   * its events are gone.
   */
  resume(lastEventId: string): Promise<HttpReply | undefined> {
    const resumed = resumeStream(this.#resumable, lastEventId);
    // Draining: a client back here (a kept-alive connection) is sent on, to resume where the stream is handed over.
    if (this.#onReleased !== undefined) void resumed.then(() => this.#standalone?.disconnect());
    return resumed;
  }

  /** What {@link resumeStream} needs of this session. */
  get #resumable(): ResumableSession {
    return {
      host: this,
      ownerCheckMs: this.#host.ownerCheckMs ?? 1000,
      closed: () => this.#closed,
      live: (streamId) => this.#streams?.get(streamId),
      refusal: () => this.streamRefusal(),
      openConnection: () => this.#openConnection()!,
      remotes: (this.#remotes ??= new Set()),
      takeOver: (streamId, owner, connection, last) => {
        this.#takeover?.stop();
        const { store, bus, ownerCheckMs = 1000, retryMs } = this.#host;
        const adopt = (stream: LegacyStream): void => {
          if (this.#takeover === takeover) this.#takeover = undefined;
          this.#adopt(stream);
        };
        const takeover = new StandaloneTakeover(
          { streams: this, store: store!, bus: bus!, ownerCheckMs, retryMs, adopt },
          streamId,
          owner,
          connection,
          last,
        );
        (this.#takeover = takeover).start();
      },
    };
  }

  #adopt(stream: LegacyStream): void {
    (this.#streams ??= new Map()).set(stream.id, stream);
    if (this.#standalone === undefined || !this.#standalone.connected) this.#standalone = stream;
  }

  /** A `handover` of a standalone stream (see `standalone-handover.ts`), or the answer to this process's own. */
  #handover(message: HandoverMessage): void {
    const bus = this.#host.bus!;
    const takeover = this.#takeover?.streamId === message.streamId ? this.#takeover : undefined;
    if (message.kind === 'released') return takeover?.released(message.head, message.late);
    if (message.origin === bus.origin) return takeover?.heard();
    const standalone = this.#standalone;
    if (standalone?.id === message.streamId && (standalone.connected || this.#host.store !== undefined)) {
      // Held here until this message: what comes after it is the taker's.
      this.#standalone = undefined;
      this.#streams?.delete(standalone.id);
      release(standalone, bus, message, this.#host.report, () => this.#onReleased?.());
    } else if (message.owner === bus.origin) bus.publish(releasedMessage(bus.origin, message));
  }

  connectionEnded(): void {
    this.#connections -= 1;
  }

  streamEnded(stream: LegacyStream): void {
    this.#streams?.delete(stream.id);
    if (this.#standalone === stream) this.#standalone = undefined;
  }

  close(): Promise<void> {
    if (this.#closed) return RESOLVED;
    this.#closed = true;
    const exchanges = this.#exchanges.takeAll();
    const elsewhere = this.#host.keptElsewhere?.() === true;
    for (const exchange of exchanges) exchange.abandon(elsewhere ? cutByShutdown : sessionEnded);
    // The standalone stream of a session that lives on elsewhere (a drain) stays resumable in the store.
    for (const stream of [...(this.#streams?.values() ?? [])]) stream[elsewhere && stream === this.#standalone ? 'disconnect' : 'finish']();
    for (const remote of [...(this.#remotes ?? [])]) remote.connection.close();
    this.#takeover?.stop();
    this.#takeover = undefined;
    this.#onReleased?.();
    this.#queue = undefined;
    const onclose = this.onclose;
    this.onmessage = this.onerror = this.onclose = undefined;
    onclose?.();
    this.#host.closed();
    return RESOLVED;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #openConnection(): SseConnection | undefined {
    if (this.streamRefusal() !== undefined) return undefined;
    this.#connections += 1;
    return this.#host.pool.open();
  }

  #newStream(kind: StreamInfo['kind'], ids?: readonly RequestId[]): LegacyStream {
    // With a bus, the stream says whose it is: another process resuming it knows whom to follow, and what is owed.
    const bus = this.#host.bus;
    const info = bus === undefined ? undefined : { owner: bus.origin, kind, ...(ids === undefined ? {} : { ids }) };
    const stream = new LegacyStream(this, this.#host.newStreamId(), info);
    (this.#streams ??= new Map()).set(stream.id, stream);
    return stream;
  }

  #toStandalone(json: string, method?: unknown): void {
    const standalone = this.#standalone;
    const bus = this.#host.bus;
    if (standalone !== undefined && (standalone.connected || this.#host.store !== undefined)) {
      standalone.send(json);
      return bus?.stored?.(this.#host.sessionId, standalone.lastSeq);
    }
    if (this.#takeover !== undefined) return this.#takeover.keep(json, bus?.relayedEvent?.());
    if (bus !== undefined) {
      // The process holding the standalone stream hears this event itself (relayed): sent from there, once.
      if (bus.relaysEvents === true && RELAYED.has(method as string)) return;
      // The standalone stream, if any, is held by another process: it sends this (nothing is queued here).
      bus.publish({ kind: 'standalone', origin: bus.origin, sessionId: this.#host.sessionId, json });
      return;
    }
    const queue = (this.#queue ??= []);
    if (queue.length >= this.#host.maxQueuedEvents) queue.shift();
    if (this.#host.maxQueuedEvents > 0) queue.push(json);
  }
}
