/**
 * The session bus on Redis pub/sub: one channel per deployment, every process subscribed on a connection of its
 * own (a subscribed Redis connection can do nothing else). Each message reaches every process, which keeps those
 * about the sessions it holds: the cost is one small message per cross-process hand-over, heard by every process.
 */
import type { BusMessage, SessionBus } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisSessionBus}. */
export interface RedisSessionBusOptions {
  /** Prefix of the channel (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
}

function isBusMessage(value: unknown): value is BusMessage {
  const m = value as Partial<Record<string, unknown>> | null;
  if (typeof m !== 'object' || m === null || typeof m.origin !== 'string') return false;
  // A server-wide event: its shape is the server's to check.
  if (m.kind === 'event') return typeof m.event === 'object' && m.event !== null;
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
  readonly #listeners = new Set<(message: BusMessage) => void>();
  readonly #lost = new Set<() => void>();

  /**
   * `publisher` is any connection; `subscriber` a connection of the bus's own (it is put in subscriber mode, and
   * ioredis subscribes it again after a reconnection).
   */
  constructor(publisher: Redis, subscriber: Redis, options: RedisSessionBusOptions = {}) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#channel = `${options.prefix ?? 'wiremcp:'}bus`;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.#channel) return;
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
    await this.#publisher.publish(this.#channel, JSON.stringify(message));
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
