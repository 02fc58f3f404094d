/**
 * The session bus on Redis pub/sub: one channel per deployment, every process subscribed on a connection of its
 * own (a subscribed Redis connection can do nothing else). Each message reaches every process, which keeps those
 * about the sessions it holds: the cost is one small message per cross-process hand-over, heard by every process.
 * A process that joins also listens on a channel of its own (`<prefix>bus:<origin>`), where the messages addressed
 * to it go (a followed stream's events), and which says it is alive: `PUBSUB NUMSUB` counts its subscriber, which
 * Redis drops the moment the process's connection closes (it died), without waiting for any timeout.
 */
import type { BusMessage, SessionBus } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisSessionBus}. */
export interface RedisSessionBusOptions {
  /** Prefix of the channel (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /**
   * After this process's own subscriber connection came back (Redis restarted), for how long another process with no
   * subscriber yet is taken as reconnecting, not dead, in ms (default 5 000).
   */
  readonly reconnectGraceMs?: number;
}

const text = (value: unknown): boolean => typeof value === 'string';

function isBusMessage(value: unknown): value is BusMessage {
  const m = value as Partial<Record<string, unknown>> | null;
  if (typeof m !== 'object' || m === null || typeof m.origin !== 'string') return false;
  // A server-wide event: its shape is the server's to check.
  if (m.kind === 'event') return typeof m.event === 'object' && m.event !== null;
  if (m.kind === 'follow' || m.kind === 'unfollow')
    return text(m.target) && text(m.sessionId) && text(m.streamId) && typeof m.after === 'number';
  if (m.kind === 'handover') return text(m.sessionId) && text(m.streamId) && text(m.owner);
  if (m.kind === 'released')
    return (
      text(m.target) &&
      text(m.sessionId) &&
      text(m.streamId) &&
      (m.head === undefined || Number.isSafeInteger(m.head)) &&
      (m.late === undefined || (Array.isArray(m.late) && m.late.every(text)))
    );
  if (m.kind === 'stream') {
    const events = m.events;
    return (
      text(m.target) &&
      text(m.sessionId) &&
      text(m.streamId) &&
      typeof m.head === 'number' &&
      typeof m.done === 'boolean' &&
      Array.isArray(events) &&
      events.every((e: { seq?: unknown; data?: unknown } | null) => typeof e?.seq === 'number' && typeof e.data === 'string')
    );
  }
  return (
    typeof m.sessionId === 'string' &&
    (((m.kind === 'deliver' || m.kind === 'standalone') && typeof m.json === 'string') ||
      (m.kind === 'state' && (m.state === undefined || (typeof m.state === 'object' && m.state !== null))) ||
      m.kind === 'ended')
  );
}

/** See the module comment; the contract is {@link SessionBus}'s. */
export class RedisSessionBus implements SessionBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #graceMs: number;
  readonly #listeners = new Set<(message: BusMessage) => void>();
  readonly #lost = new Set<() => void>();
  /** This process's own channel, once it joined. */
  #own: string | undefined;
  /** When the subscriber connection last came back. */
  #backAt = 0;

  /**
   * `publisher` is any connection; `subscriber` a connection of the bus's own (it is put in subscriber mode, and
   * ioredis subscribes it again after a reconnection).
   */
  constructor(publisher: Redis, subscriber: Redis, options: RedisSessionBusOptions = {}) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#channel = `${options.prefix ?? 'wiremcp:'}bus`;
    this.#graceMs = options.reconnectGraceMs ?? 5000;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.#channel && channel !== this.#own) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (!isBusMessage(message)) return;
      for (const listener of this.#listeners) listener(message);
    });
    // Messages published while the connection was down are lost: once it is back and subscribed again, say so.
    let dropped = false;
    subscriber.on('close', () => (dropped = true));
    subscriber.on('ready', () => {
      if (!dropped) return;
      dropped = false;
      this.#backAt = Date.now();
      this.#subscriber.subscribe(this.#channel).then(
        () => {
          for (const listener of [...this.#lost]) listener();
        },
        () => {
          // The connection dropped again: its next 'ready' tries again.
          dropped = true;
        },
      );
    });
  }

  /** Subscribes the connection to the channel; resolves once Redis confirmed it. */
  async start(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel);
  }

  async publish(message: BusMessage): Promise<void> {
    const target = 'target' in message ? message.target : undefined;
    await this.#publisher.publish(target === undefined ? this.#channel : `${this.#channel}:${target}`, JSON.stringify(message));
  }

  /** See `SessionBus.join`: subscribes this process's own channel. */
  async join(origin: string): Promise<void> {
    this.#own = `${this.#channel}:${origin}`;
    await this.#subscriber.subscribe(this.#own);
  }

  /**
   * See `SessionBus.alive`: a subscriber on the process's own channel. `undefined` while this process cannot tell:
   * Redis does not answer, or this process's own connection came back lately (the other one may be reconnecting too).
   */
  async alive(origin: string): Promise<boolean | undefined> {
    let count: number;
    try {
      const reply = (await this.#publisher.pubsub('NUMSUB', `${this.#channel}:${origin}`)) as [string, number];
      count = Number(reply[1]);
    } catch {
      return undefined;
    }
    if (count > 0) return true;
    return this.#subscriber.status === 'ready' && Date.now() - this.#backAt >= this.#graceMs ? false : undefined;
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** See `SessionBus.onMessagesLost`: called once the subscriber connection is back and subscribed again. */
  onMessagesLost(listener: () => void): () => void {
    this.#lost.add(listener);
    return () => this.#lost.delete(listener);
  }
}
