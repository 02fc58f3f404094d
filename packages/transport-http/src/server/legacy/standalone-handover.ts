/**
 * Handing a legacy session's standalone GET stream from one process to another. The standalone stream carries what
 * the session hears without a request (list changes, resource updates): with several processes, only the process
 * holding the stream stores those events (the others hear them too, and drop them), so that each is stored once.
 * When its client resumes the stream on another process (its connection broke, or its process is draining), that
 * process takes it over instead of following it: it publishes a `handover` on the bus, which every process hears at
 * the same point among the server events relayed there. The holder stores what comes before it and stops; the taker
 * holds what comes after it, keeping it until it knows where the stream stands (the holder's `released` answer, with
 * its last event stored), then replays what the client missed and continues the stream, numbered after it. No event
 * falls between the two, and none is stored twice.
 *
 * A local event raised on the taker after it published its `handover` is relayed after it, so it is the taker's to
 * keep from that moment on; one raised on the holder before it heard the `handover` is the holder's. The holder may
 * raise one in between: after the bus ordered the `handover`, before the holder heard it. The holder stores it, and
 * its relayed copy, ordered after the `handover`, reaches the taker, which keeps it too. The holder can tell which
 * (the events it published whose echo had not come back when it heard the `handover`) and names them in `released`
 * (`late`); the taker drops its copies of those, so that the client hears each once, under the holder's event id.
 */
import { encodeSseMessage } from '../../sse/encode.js';
import type { EventStore } from '../event-store.js';
import type { HandoverMessage } from '../session-bus.js';
import type { SseConnection } from '../sse-connection.js';
import { LegacyStream, type StreamHost } from './legacy-stream.js';
import type { SessionTransportBus } from './session-transport.js';

/** Events kept while a takeover waits for the holder's answer (the wait is short; beyond this, the oldest go). */
const MAX_PENDING = 4096;
/** Checks of the named holder before the taker gives up waiting for an answer and carries on from the store. */
const MAX_CHECKS = 30;

/** What a takeover needs of its session's transport. */
export interface TakeoverHost {
  /** The transport, as its streams' host. */
  readonly streams: StreamHost;
  readonly store: EventStore;
  readonly bus: SessionTransportBus;
  readonly ownerCheckMs: number;
  readonly retryMs: number;
  /** Makes `stream` the session's standalone stream (the takeover is over; the stream is then given its connection). */
  adopt(stream: LegacyStream): void;
}

/**
 * The `released` answer to a `handover` heard by the process holding the stream (`head`: its last event; `late`: see
 * `SessionTransportBus.late`).
 */
export function releasedMessage(
  origin: string,
  handover: { origin: string; sessionId: string; streamId: string },
  head?: number,
  late?: readonly string[],
): HandoverMessage {
  return {
    kind: 'released',
    origin,
    target: handover.origin,
    sessionId: handover.sessionId,
    streamId: handover.streamId,
    ...(head === undefined ? {} : { head }),
    ...(late === undefined || late.length === 0 ? {} : { late }),
  };
}

/**
 * The holding side of a hand-over: `stream`, held here until `handover`, is disconnected; once what was sent to it is
 * stored, its last event goes to the taker (`released`, naming the events stored here that came after the `handover`),
 * then `then` runs.
 */
export function release(
  stream: LegacyStream,
  bus: SessionTransportBus,
  handover: { origin: string; sessionId: string; streamId: string },
  report: (error: unknown) => void,
  then: () => void,
): void {
  // Now, as the `handover` is heard: the echoes that come after it must not shorten the list.
  const late = bus.late?.(handover.sessionId);
  stream.disconnect();
  void stream.settled().then(async () => {
    // A late event whose append failed is not in the store: it is not named, so the taker sends its own copy of it.
    const named = late?.filter((event) => !stream.appendFailed(event.seq)).map((event) => event.id);
    await bus.publishNow(releasedMessage(bus.origin, handover, stream.lastSeq, named)).catch(report);
    then();
  });
}

/** The taking side of a hand-over; see the module comment. */
export class StandaloneTakeover {
  readonly streamId: string;
  readonly #host: TakeoverHost;
  readonly #owner: string;
  readonly #connection: SseConnection;
  readonly #clientLast: number;
  /** What is kept until the stream is adopted: each message, and the relayed event it carries (if any). */
  readonly #pending: { json: string; event: string | undefined }[] = [];
  /** True once this process heard its own `handover`: events relayed from the other processes are its to keep. */
  #heard = false;
  #answered = false;
  #over = false;
  #checks = 0;
  #checking = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `owner`: the process the stream's stored description names; `clientLast`: the client's last event. */
  constructor(host: TakeoverHost, streamId: string, owner: string, connection: SseConnection, clientLast: number) {
    this.#host = host;
    this.streamId = streamId;
    this.#owner = owner;
    this.#connection = connection;
    this.#clientLast = clientLast;
    // Until the stream is adopted, a client that goes away only ends its connection: the stream is still taken over.
    connection.onclosed = () => host.streams.connectionEnded();
  }

  /** True once events relayed from the other processes belong to this stream (see the module comment). */
  get hearsOthers(): boolean {
    return this.#heard;
  }

  /** Publishes the `handover` and starts checking the named holder. */
  start(): void {
    const bus = this.#host.bus;
    this.#timer = setInterval(() => this.#check(), this.#host.ownerCheckMs);
    (this.#timer as { unref?: () => void }).unref?.();
    bus.publish({
      kind: 'handover',
      origin: bus.origin,
      sessionId: this.#host.streams.sessionId,
      streamId: this.streamId,
      owner: this.#owner,
    });
  }

  /** Keeps an event for the stream until it is adopted (`event`: the relayed event it carries, if any). */
  keep(json: string, event?: string): void {
    if (this.#pending.length >= MAX_PENDING) this.#pending.shift();
    this.#pending.push({ json, event });
  }

  /** This process's own `handover` came back on the bus. */
  heard(): void {
    this.#heard = true;
    // This process is the one the stream names and it holds nothing: nobody holds it, nobody else answers.
    if (this.#owner === this.#host.bus.origin) this.released(undefined);
  }

  /**
   * The holder's answer (`head`: its last event, stored; `late`: events it stored that were also kept here), or the
   * named holder's saying it holds nothing.
   */
  released(head: number | undefined, late?: readonly string[]): void {
    if (this.#answered) return;
    this.#answered = true;
    this.#stopTimer();
    if (late !== undefined && late.length > 0) {
      const stored = new Set(late);
      const kept = this.#pending.filter((entry) => entry.event === undefined || !stored.has(entry.event));
      this.#pending.splice(0, this.#pending.length, ...kept);
    }
    void this.#adopt(head).catch((error: unknown) => this.#host.streams.report(error));
  }

  /** Abandons the takeover (the session closed): its connection is closed. */
  stop(): void {
    this.#over = true;
    this.#stopTimer();
    this.#connection.close();
  }

  /** Without an answer: once the named holder is dead (or after many checks), the store says where the stream stands. */
  #check(): void {
    if (this.#checking || this.#answered) return;
    this.#checks += 1;
    const alive = this.#host.bus.alive;
    if (alive === undefined) {
      if (this.#checks >= MAX_CHECKS) this.released(undefined);
      return;
    }
    this.#checking = true;
    alive.call(this.#host.bus, this.#owner).then(
      (answer) => {
        this.#checking = false;
        if (answer === false || this.#checks >= MAX_CHECKS) this.released(undefined);
      },
      (error: unknown) => {
        this.#checking = false;
        this.#host.streams.report(error);
      },
    );
  }

  /** Replays what the client missed, then makes the stream this process's, continuing after `head`. */
  async #adopt(head: number | undefined): Promise<void> {
    const host = this.#host;
    let replay;
    try {
      replay = await host.store.replay(host.streams.sessionId, this.streamId, this.#clientLast);
    } catch (error) {
      host.streams.report(error);
    }
    if (this.#over) return;
    let last = this.#clientLast;
    for (const event of replay?.events ?? []) {
      if (head !== undefined && event.seq > head) break;
      if (event.data !== '') this.#connection.write(encodeSseMessage(event.data, `${this.streamId}_${event.seq}`));
      last = event.seq;
    }
    if (head !== undefined) last = Math.max(last, head);
    const stream = new LegacyStream(host.streams, this.streamId, { owner: host.bus.origin, kind: 'standalone' }, last);
    host.adopt(stream);
    stream.attach(this.#connection);
    // The first event written here names this process as the stream's holder, for the next resumption elsewhere.
    stream.prime(host.retryMs);
    for (const { json } of this.#pending.splice(0)) stream.send(json);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
