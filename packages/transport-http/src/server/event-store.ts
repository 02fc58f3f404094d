/**
 * Where the SSE events of legacy sessions are kept so that a client can resume a broken stream (`GET` with
 * `Last-Event-ID`, 2025-03-26 onwards; the 2025-11-25 polling pattern relies on it). Events are plain strings, so a
 * shared store (Redis, a database) can hold them and another process can replay a stream it did not create.
 */

/** One event of a stream: what a store keeps. Every field is a string or a number, so it serialises as is. */
export interface StoredEvent {
  /** The legacy session the stream belongs to; replay never crosses sessions. */
  readonly sessionId: string;
  /** The stream within the session (unique in it: an id minted by the handler, no `_`). */
  readonly streamId: string;
  /** The event's position in its stream: 0 for the first event, then one more for each. */
  readonly seq: number;
  /** The event's data: one JSON-RPC message (or batch) as JSON text; `''` for a priming event. */
  readonly data: string;
  /**
   * On a stream's first event, and on the first event a process writes to a stream it took over: what the stream is
   * (JSON text: the process running it, and for a request's stream the ids of its requests), kept as long as the
   * stream's events (the latest given wins) and returned by every `replay`, so a process resuming a stream another
   * one ran knows whom to ask and what the client still waits for.
   */
  readonly info?: string;
}

/** What a store returns for a resumption. */
export interface EventReplay {
  /** The events after the one the client last saw, in order (`seq` and `data`). */
  readonly events: readonly { readonly seq: number; readonly data: string }[];
  /** True when the stream's last event (the response that ends it) is among the stored ones. */
  readonly complete: boolean;
  /** The stream's `info`, as the latest event carrying one gave it (see {@link StoredEvent.info}). */
  readonly info?: string;
}

/**
 * A store of SSE events. Contract for an implementation (shared or not):
 * - `append` is called in `seq` order for each stream, once per event, before the event is written to the client;
 *   a failure (throw or rejection) is reported and the event is still sent, but is not resumable. An event whose
 *   `seq` the stream already holds is ignored (another process may append the same ending to a stream whose own
 *   process died). The latest `info` given is kept with the stream and returned by `replay`.
 * - `replay(sessionId, streamId, afterSeq)` returns every event of that stream of that session with `seq > afterSeq`
 *   in order, or `undefined` when it cannot (unknown or expired stream, or events after `afterSeq` already
 *   dropped): never a partial replay with a gap, and never another session's events.
 * - `complete` marks the stream's end (its response is stored): a process that replays a stream it does not run
 *   closes the connection after the replay instead of waiting for more.
 * - `deleteSession` forgets every stream of a session (the session ended).
 * - It bounds its own memory (event count, bytes, age) and may forget anything at any time, within those rules.
 */
export interface EventStore {
  append(event: StoredEvent): void | Promise<void>;
  /**
   * What the store holds now, for a gauge read at each metrics scrape: it must be cheap and must not wait (a shared
   * store answers from its last sample and refreshes it in the background). `undefined` when not known yet.
   */
  held?(): EventStoreHeld | undefined;
  replay(sessionId: string, streamId: string, afterSeq: number): EventReplay | undefined | Promise<EventReplay | undefined>;
  complete(sessionId: string, streamId: string): void | Promise<void>;
  deleteSession(sessionId: string): void | Promise<void>;
}

/** What an {@link EventStore} holds (see `EventStore.held`). */
export interface EventStoreHeld {
  /** Events kept (priming events included). */
  readonly events: number;
  /** Bytes of event data kept (UTF-16 length), when the store counts them. */
  readonly bytes?: number;
}

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream (default 512; the oldest go first). */
  readonly maxEventsPerStream?: number;
  /** Events kept in all (default 50 000; the least recently written streams go first). */
  readonly maxEvents?: number;
  /** Bytes of event data kept in all, counted as UTF-16 length (default 64 Mi). */
  readonly maxBytes?: number;
  /** A stream not written to for this long is forgotten (default 5 minutes). */
  readonly ttlMs?: number;
  /** Clock, in ms (default `Date.now`). */
  readonly now?: () => number;
}

interface StreamLog {
  readonly key: string;
  readonly sessionId: string;
  firstSeq: number;
  info: string | undefined;
  data: string[];
  bytes: number;
  complete: boolean;
  touchedAt: number;
}

/**
 * The default {@link EventStore}: bounded, in this process's memory. Streams are kept in least-recently-written
 * order, so eviction (by count, bytes or age) is a walk from the oldest; there is no timer.
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, StreamLog>();
  readonly #sessions = new Map<string, Set<string>>();
  readonly #maxPerStream: number;
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #events = 0;
  #bytes = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxPerStream = Math.max(1, options.maxEventsPerStream ?? 512);
    this.#maxEvents = Math.max(1, options.maxEvents ?? 50_000);
    this.#maxBytes = Math.max(1, options.maxBytes ?? 64 * 1024 * 1024);
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Events held (for diagnostics and tests). */
  get size(): number {
    return this.#events;
  }

  /** Events and bytes held now (streams past their age dropped first). */
  held(): EventStoreHeld {
    this.#evict(this.#now());
    return { events: this.#events, bytes: this.#bytes };
  }

  append(event: StoredEvent): void {
    const key = `${event.sessionId}\n${event.streamId}`;
    const now = this.#now();
    let log = this.#streams.get(key);
    if (log === undefined) {
      log = { key, sessionId: event.sessionId, firstSeq: event.seq, info: event.info, data: [], bytes: 0, complete: false, touchedAt: now };
      let keys = this.#sessions.get(event.sessionId);
      if (keys === undefined) this.#sessions.set(event.sessionId, (keys = new Set()));
      keys.add(key);
    } else {
      this.#streams.delete(key); // re-inserted below: the map stays in least-recently-written order
      const expected = log.firstSeq + log.data.length;
      if (event.seq < expected) {
        this.#streams.set(key, log);
        return;
      }
      if (event.seq > expected) this.#truncate(log, log.data.length, event.seq);
    }
    log.touchedAt = now;
    if (event.info !== undefined) log.info = event.info;
    log.data.push(event.data);
    log.bytes += event.data.length;
    this.#events += 1;
    this.#bytes += event.data.length;
    this.#streams.set(key, log);
    if (log.data.length > this.#maxPerStream) this.#truncate(log, log.data.length - this.#maxPerStream, log.firstSeq);
    this.#evict(now);
  }

  replay(sessionId: string, streamId: string, afterSeq: number): EventReplay | undefined {
    this.#evict(this.#now());
    const log = this.#streams.get(`${sessionId}\n${streamId}`);
    if (log === undefined || !Number.isInteger(afterSeq) || afterSeq + 1 < log.firstSeq) return undefined;
    const start = afterSeq + 1 - log.firstSeq;
    const events = log.data.slice(start).map((data, index) => ({ seq: log.firstSeq + start + index, data }));
    return log.info === undefined ? { events, complete: log.complete } : { events, complete: log.complete, info: log.info };
  }

  complete(sessionId: string, streamId: string): void {
    const log = this.#streams.get(`${sessionId}\n${streamId}`);
    if (log) log.complete = true;
  }

  deleteSession(sessionId: string): void {
    const keys = this.#sessions.get(sessionId);
    if (keys === undefined) return;
    for (const key of keys) {
      const log = this.#streams.get(key);
      if (log) this.#drop(log);
    }
    this.#sessions.delete(sessionId);
  }

  /** Drops the first `count` events of a stream; `nextFirst` becomes its first seq (a gap when it skips ahead). */
  #truncate(log: StreamLog, count: number, nextFirst: number): void {
    const removed = log.data.splice(0, count);
    let bytes = 0;
    for (const text of removed) bytes += text.length;
    log.bytes -= bytes;
    this.#bytes -= bytes;
    this.#events -= removed.length;
    log.firstSeq = Math.max(nextFirst, log.firstSeq + count);
  }

  #drop(log: StreamLog): void {
    this.#streams.delete(log.key);
    this.#events -= log.data.length;
    this.#bytes -= log.bytes;
    const keys = this.#sessions.get(log.sessionId);
    keys?.delete(log.key);
    if (keys?.size === 0) this.#sessions.delete(log.sessionId);
  }

  #evict(now: number): void {
    for (const log of this.#streams.values()) {
      const over = this.#events > this.#maxEvents || this.#bytes > this.#maxBytes;
      if (!over && now - log.touchedAt < this.#ttlMs) break;
      this.#drop(log);
    }
  }
}
