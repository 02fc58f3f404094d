/**
 * One logical SSE stream of a legacy session (a POST's stream or the standalone GET stream): its event ids, its
 * events in the event store, and the connection currently carrying it. A stream outlives its connection — the
 * client may drop it, or the server may close it to make the client poll (SEP-1699) — and a `GET` with
 * `Last-Event-ID` attaches a new connection after replaying what was missed.
 */
import { encodeSseEvent, encodeSseMessage } from '../../sse/encode.js';
import type { EventReplay, EventStore } from '../event-store.js';
import type { BusMessage } from '../session-bus.js';
import type { SseConnection } from '../sse-connection.js';

/** What a stream needs from its session. */
export interface StreamHost {
  readonly sessionId: string;
  readonly store: EventStore | undefined;
  readonly report: (error: unknown) => void;
  /** The bus to the other processes (a stream forwards its events to a process following it there). */
  readonly bus?: { readonly origin: string; publish(message: BusMessage): void };
  /** A connection of this session ended (for the per-session count). */
  connectionEnded(): void;
  /** The stream ended: it is no longer resumable here (the store may still replay it). */
  streamEnded(stream: LegacyStream): void;
}

/** The separator between a stream id and a sequence number in an event id (`<streamId>_<seq>`). */
const SEPARATOR = '_';

/** Splits an event id into its stream and sequence number; `undefined` when it is not one of ours. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const seqText = eventId.slice(at + 1);
  if (!/^\d{1,15}$/.test(seqText)) return undefined;
  return { streamId: eventId.slice(0, at), seq: Number(seqText) };
}

/** What a stream is, as its first stored event records it (`StoredEvent.info`). */
export interface StreamInfo {
  /** The process running the stream (its tag on the bus). */
  readonly owner: string;
  /** A POST's stream (its requests' ids), or the session's standalone GET stream. */
  readonly kind: 'request' | 'standalone';
  readonly ids?: readonly (string | number)[];
}

/** Reads a stored `info`; `undefined` when it is not one of ours. */
export function parseStreamInfo(text: string | undefined): StreamInfo | undefined {
  if (text === undefined) return undefined;
  try {
    const info = JSON.parse(text) as Partial<StreamInfo>;
    if (typeof info.owner !== 'string' || (info.kind !== 'request' && info.kind !== 'standalone')) return undefined;
    const ids = Array.isArray(info.ids) ? info.ids.filter((id) => typeof id === 'string' || typeof id === 'number') : undefined;
    return { owner: info.owner, kind: info.kind, ...(ids === undefined ? {} : { ids }) };
  } catch {
    return undefined;
  }
}

/** Failed appends remembered per stream (a hand-over asks about its latest events only). */
const MAX_FAILED_KEPT = 64;

/** See the module comment. */
export class LegacyStream {
  readonly id: string;
  readonly #host: StreamHost;
  /** Stored with the first event this process writes (then cleared). */
  #info: string | undefined;
  #connection: SseConnection | undefined;
  #seq: number;
  #done = false;
  /** The last event written (in order, once stored): what a follower can read from the store. */
  #written: number;
  /** The process following this stream for a client that resumed it there (see `follow`). */
  #follower: string | undefined;
  /** Appends still running in an async store; writes wait for them so a resumed client never misses an event. */
  #chain: Promise<void> | undefined;
  /** Events sent while a resumption's replay is being read, written once the replay is. */
  #backlog: { seq: number; text: string }[] | undefined;
  /** True while appends fail (reported once per outage, not once per event). */
  #failing = false;
  /** The events whose append failed, the latest {@link MAX_FAILED_KEPT} (see {@link appendFailed}). */
  #failedSeqs: Set<number> | undefined;
  /** The latest of the failed events forgotten from `#failedSeqs` (-1: none). */
  #failedForgotten = -1;

  /**
   * `info` is stored with the first event written here (see {@link StreamInfo}); `lastSeq` continues a stream taken
   * over from another process (its events up to `lastSeq` are already stored).
   */
  constructor(host: StreamHost, id: string, info?: StreamInfo, lastSeq = -1) {
    this.#host = host;
    this.id = id;
    this.#info = info === undefined ? undefined : JSON.stringify(info);
    this.#seq = lastSeq;
    this.#written = lastSeq;
  }

  /** True while another process follows the stream for a client (it is in use). */
  get followed(): boolean {
    return this.#follower !== undefined;
  }

  /**
   * Another process (`origin`) resumed this stream for a client: from now on each event, once stored, is forwarded
   * to it, and it hears where the stream stands now (what is stored up to `head` it reads from the store).
   */
  follow(origin: string): void {
    this.#follower = origin;
    this.#forward([]);
  }

  /** The follower's client went away. */
  unfollow(origin: string): void {
    if (this.#follower === origin) this.#follower = undefined;
  }

  /** The last event given a sequence number here (stored once {@link settled}). */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * True when event `seq`'s append failed (it is not in the store), or may have: an answer for an event older than the
   * failures remembered is true. Final for the events sent before {@link settled} resolved.
   */
  appendFailed(seq: number): boolean {
    return seq <= this.#failedForgotten || this.#failedSeqs?.has(seq) === true;
  }

  /** Resolves once every event sent so far was stored (or its append failed). */
  settled(): Promise<void> {
    return this.#chain ?? Promise.resolve();
  }

  /** True once the stream ended (its response was sent, or the session closed). */
  get done(): boolean {
    return this.#done;
  }

  /** True while a connection is carrying it. */
  get connected(): boolean {
    return this.#connection?.open === true;
  }

  /** Makes `connection` carry the stream (the previous one, if still open, is closed). */
  attach(connection: SseConnection): void {
    const previous = this.#connection;
    this.#connection = connection;
    connection.onclosed = () => {
      if (this.#connection === connection) this.#connection = undefined;
      this.#host.connectionEnded();
    };
    if (previous !== undefined && previous !== connection) previous.close();
  }

  /** The priming event (2025-11-25): an id and empty data, with the reconnection delay. */
  prime(retryMs: number): void {
    if (this.#host.store === undefined) return;
    const seq = ++this.#seq;
    this.#emit(seq, '', encodeSseEvent({ id: `${this.id}${SEPARATOR}${seq}`, retry: retryMs }));
  }

  /** Sends one message (JSON text): stored with an id when there is a store, written when connected. */
  send(json: string): void {
    if (this.#done) return;
    if (this.#host.store === undefined) {
      this.#connection?.write(encodeSseMessage(json));
      return;
    }
    const seq = ++this.#seq;
    this.#emit(seq, json, encodeSseMessage(json, `${this.id}${SEPARATOR}${seq}`));
  }

  /** Ends the stream: stored as complete, its connection closed once what was sent is written. */
  finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#host.streamEnded(this);
    const store = this.#host.store;
    const close = (): void => {
      // A follower hears the end once the store says so, so its last read finds the stream complete.
      const completed = store === undefined ? undefined : this.#settle(() => store.complete(this.#host.sessionId, this.id));
      if (this.#follower !== undefined) void (completed ?? Promise.resolve()).then(() => this.#forward([]));
      this.#connection?.close();
    };
    if (this.#chain) void this.#chain.then(close);
    else close();
  }

  /** Closes the connection but not the stream (the client resumes with `GET` and `Last-Event-ID`). */
  disconnect(): void {
    this.#connection?.close();
  }

  /**
   * Starts a resumption: until {@link completeResume} or {@link abortResume}, events sent are held (and stored) so
   * that none falls between the replay being read and the new connection taking over.
   */
  beginResume(): void {
    this.#backlog ??= [];
  }

  /** Drops a resumption that could not be served (its replay was unavailable). */
  abortResume(): void {
    const backlog = this.#backlog;
    this.#backlog = undefined;
    for (const held of backlog ?? []) this.#connection?.write(held.text);
  }

  /**
   * Finishes a resumption on `connection`: writes the replayed events, then what was held meanwhile, and keeps the
   * connection for what comes next (or closes it, when the stream has ended).
   */
  completeResume(connection: SseConnection, replay: EventReplay): void {
    const backlog = this.#backlog ?? [];
    this.#backlog = undefined;
    this.attach(connection);
    let last = -1;
    for (const event of replay.events) {
      if (event.data !== '') connection.write(encodeSseMessage(event.data, `${this.id}${SEPARATOR}${event.seq}`));
      last = event.seq;
    }
    for (const held of backlog) if (held.seq > last) connection.write(held.text);
    if (this.#done && !this.#chain) connection.close();
  }

  #emit(seq: number, data: string, text: string): void {
    const store = this.#host.store!;
    const write = (): void => {
      if (this.#backlog !== undefined) this.#backlog.push({ seq, text });
      else this.#connection?.write(text);
      this.#written = seq;
      if (this.#follower !== undefined) this.#forward([{ seq, data }]);
    };
    let appended: Promise<void> | undefined;
    try {
      const event = { sessionId: this.#host.sessionId, streamId: this.id, seq, data };
      const info = this.#info;
      this.#info = undefined;
      const result = store.append(info === undefined ? event : { ...event, info });
      // Its failure is handled now, not once the appends before it have finished: a store that fails every append
      // in flight at once (its connection lost) must leave no rejection unhandled.
      if (result)
        appended = Promise.resolve(result).then(
          () => this.#appendSucceeded(),
          (error: unknown) => this.#appendFailed(seq, error),
        );
      else this.#appendSucceeded();
    } catch (error) {
      this.#appendFailed(seq, error);
    }
    if (this.#chain === undefined && appended === undefined) {
      write();
      return;
    }
    const previous = this.#chain ?? Promise.resolve();
    const next = previous.then(() => appended).then(write);
    this.#chain = next;
    void next.then(() => {
      if (this.#chain === next) this.#chain = undefined;
    });
  }

  /** An append failed: the event is still sent, not resumable. Reported once until an append succeeds again. */
  #appendFailed(seq: number, error: unknown): void {
    const failed = (this.#failedSeqs ??= new Set());
    failed.add(seq);
    if (failed.size > MAX_FAILED_KEPT) {
      const oldest = Math.min(...failed);
      failed.delete(oldest);
      this.#failedForgotten = Math.max(this.#failedForgotten, oldest);
    }
    if (this.#failing) return;
    this.#failing = true;
    this.#host.report(error);
  }

  #appendSucceeded(): void {
    this.#failing = false;
  }

  /** Forwards events to the follower, with where the stream stands (`done` once it ended and nothing is pending). */
  #forward(events: { seq: number; data: string }[]): void {
    const bus = this.#host.bus;
    const target = this.#follower;
    if (bus === undefined || target === undefined) return;
    const done = this.#done && this.#chain === undefined;
    bus.publish({
      kind: 'stream',
      origin: bus.origin,
      target,
      sessionId: this.#host.sessionId,
      streamId: this.id,
      events,
      head: this.#written,
      done,
    });
  }

  /** Runs a store operation; failures reported. Resolves once it settled. */
  #settle(operation: () => void | Promise<void>): Promise<void> | undefined {
    try {
      const result = operation();
      if (result) return result.catch((error: unknown) => this.#host.report(error));
    } catch (error) {
      this.#host.report(error);
    }
    return undefined;
  }
}
