/**
 * A request's stream another process runs, resumed here for a client (`GET` with `Last-Event-ID` that reached this
 * process; a standalone stream is taken over instead, see `standalone-handover.ts`):
 * after the replay from the event store, this process follows the stream on the process running it, which forwards
 * each event once stored, so the resumed stream stays live until its end. A gap (a forwarded event further on than
 * the next one expected, or the head of the stream beyond it) is filled from the store; every event is written once,
 * in order. The process running it is checked at intervals: once it died, what it stored is read one last time, and
 * the stream is handed back to the session to end, with an error for each request still owed.
 */
import { encodeSseMessage } from '../../sse/encode.js';
import type { EventStore } from '../event-store.js';
import type { BusMessage, StreamMessage } from '../session-bus.js';
import type { SseConnection } from '../sse-connection.js';
import type { StreamInfo } from './legacy-stream.js';

/** What a followed stream needs from its session. */
export interface RemoteStreamHost {
  readonly sessionId: string;
  readonly store: EventStore;
  readonly report: (error: unknown) => void;
  readonly bus: {
    readonly origin: string;
    publish(message: BusMessage): void;
    alive?(origin: string): Promise<boolean | undefined>;
  };
  /** How often the process running the stream is checked, in ms. */
  readonly ownerCheckMs: number;
  /** The process running the stream died: what it stored has been written; end or take over the stream. */
  ownerDied(remote: RemoteStream): void;
  /** A connection of this session ended (for the per-session count). */
  connectionEnded(): void;
  /** The client went away, or the stream ended: forget it. */
  ended(remote: RemoteStream): void;
}

/** The separator between a stream id and a sequence number in an event id (as `LegacyStream` writes them). */
const SEPARATOR = '_';

/** See the module comment. */
export class RemoteStream {
  readonly streamId: string;
  readonly info: StreamInfo;
  readonly connection: SseConnection;
  readonly #host: RemoteStreamHost;
  /** The last event written to the client. */
  #last: number;
  /** Every write and read of the store, in order. */
  #queue: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking = false;
  #over = false;
  /** Responses written to the client here (a request's stream: the ids no longer owed). */
  readonly answered = new Set<string | number>();

  constructor(host: RemoteStreamHost, streamId: string, info: StreamInfo, connection: SseConnection, last: number) {
    this.#host = host;
    this.streamId = streamId;
    this.info = info;
    this.connection = connection;
    this.#last = last;
    connection.onclosed = (byClient) => {
      this.#host.connectionEnded();
      this.#end(byClient);
    };
  }

  /** Writes replayed events (those past the last one written). */
  writeReplay(events: readonly { readonly seq: number; readonly data: string }[]): void {
    for (const event of events) this.#write(event);
  }

  /** The last event written to the client. */
  get last(): number {
    return this.#last;
  }

  /** Starts following: the process running the stream is checked at once, then asked to forward its events. */
  start(): void {
    const bus = this.#host.bus;
    this.#check();
    this.#timer = setInterval(() => this.#check(), this.#host.ownerCheckMs);
    (this.#timer as { unref?: () => void }).unref?.();
    bus.publish(this.#request('follow'));
  }

  /** Events forwarded by the process running the stream. */
  received(message: StreamMessage): void {
    void this.#enqueue(async () => {
      // A gap: what lies between was stored before it was forwarded (or before the follow arrived there).
      const first = message.events[0]?.seq ?? message.head + 1;
      if (first > this.#last + 1) await this.#catchUp();
      for (const event of message.events) this.#write(event);
      if (message.done) {
        await this.#catchUp();
        this.#end(false);
      }
    });
  }

  /** Stops following, leaving the connection open: the session takes the stream over (or ends it itself). */
  stop(): void {
    this.#end(false, false);
  }

  #request(kind: 'follow' | 'unfollow'): BusMessage {
    const bus = this.#host.bus;
    return {
      kind,
      origin: bus.origin,
      target: this.info.owner,
      sessionId: this.#host.sessionId,
      streamId: this.streamId,
      after: this.#last,
    };
  }

  #check(): void {
    const alive = this.#host.bus.alive;
    if (this.#checking || this.#over || alive === undefined) return;
    this.#checking = true;
    alive.call(this.#host.bus, this.info.owner).then(
      (answer) => {
        this.#checking = false;
        if (answer !== false || this.#over) return;
        this.#stopTimer();
        void this.#enqueue(() => this.#catchUp()).then(() => {
          if (!this.#over) this.#host.ownerDied(this);
        });
      },
      (error: unknown) => {
        // The bus cannot tell now: asked again at the next interval.
        this.#checking = false;
        this.#host.report(error);
      },
    );
  }

  async #catchUp(): Promise<void> {
    let replay;
    try {
      replay = await this.#host.store.replay(this.#host.sessionId, this.streamId, this.#last);
    } catch (error) {
      this.#host.report(error);
      return;
    }
    for (const event of replay?.events ?? []) this.#write(event);
  }

  #write(event: { readonly seq: number; readonly data: string }): void {
    if (event.seq <= this.#last || this.#over) return;
    this.#last = event.seq;
    if (event.data === '') return;
    this.connection.write(encodeSseMessage(event.data, `${this.streamId}${SEPARATOR}${event.seq}`));
    if (this.info.kind === 'request') {
      try {
        const message = JSON.parse(event.data) as { id?: unknown; method?: unknown };
        if (message.method === undefined && (typeof message.id === 'string' || typeof message.id === 'number'))
          this.answered.add(message.id);
      } catch {
        // Not ours to judge: it was stored as sent.
      }
    }
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(step).catch((error: unknown) => this.#host.report(error));
    this.#queue = next;
    return next;
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Ends following; `byClient` when the client went away (the process running the stream is told). */
  #end(byClient: boolean, close = !byClient): void {
    if (this.#over) return;
    this.#over = true;
    this.#stopTimer();
    if (byClient) this.#host.bus.publish(this.#request('unfollow'));
    if (close) this.connection.close();
    this.#host.ended(this);
  }
}
