import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import type { MessageInfo, SendOptions, Transport } from './transport.js';

/** Options of {@link createLinkedPair}. */
export interface LinkedPairOptions {
  /**
   * Send every message through `JSON.stringify`/`JSON.parse`, as a real wire would (default true). This catches
   * values that do not survive serialization (undefined, functions, cycles) and keeps the two sides from sharing
   * objects.
   */
  serialize?: boolean;
  /** Attached to every message delivered on either side. */
  info?: MessageInfo;
}

const RESOLVED = Promise.resolve();

class LinkedTransport implements Transport {
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;
  onend: (() => void) | undefined;
  other: LinkedTransport | undefined;
  #started = false;
  #closed = false;
  #queue: unknown[] = [];
  #scheduled = false;
  readonly #serialize: boolean;
  readonly #info: MessageInfo | undefined;

  constructor(serialize: boolean, info: MessageInfo | undefined) {
    this.#serialize = serialize;
    this.#info = info;
  }

  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {
    if (this.#closed) throw new LocalError('CONNECTION_CLOSED', 'Transport is closed');
    this.#started = true;
    this.#schedule();
  }

  send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    const other = this.other;
    if (this.#closed || !other || other.closed) {
      return Promise.reject(new LocalError('NOT_CONNECTED', 'The linked transport is closed'));
    }
    let payload: unknown = message;
    if (this.#serialize) {
      try {
        payload = JSON.stringify(message);
      } catch (error) {
        return Promise.reject(new LocalError('SEND_FAILED', 'Message is not serializable as JSON', { cause: error }));
      }
    }
    other.enqueue(payload);
    return RESOLVED;
  }

  /** Queues a message; delivery is asynchronous (a microtask), in order, and only after `start()`. */
  enqueue(payload: unknown): void {
    this.#queue.push(payload);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || !this.#started || this.#queue.length === 0) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#drain());
  }

  #drain(): void {
    this.#scheduled = false;
    const queue = this.#queue;
    this.#queue = [];
    for (const payload of queue) {
      if (this.#closed) return;
      let message = payload;
      if (this.#serialize) {
        try {
          message = JSON.parse(payload as string);
        } catch (error) {
          this.onerror?.(new LocalError('PARSE_ERROR', 'Invalid JSON', { cause: error }));
          continue;
        }
      }
      this.onmessage?.(message, this.#info);
    }
  }

  /** Delivers raw text as if it came off a wire (for tests of malformed input). */
  injectRaw(text: string): void {
    this.enqueue(this.#serialize ? text : JSON.parse(text));
  }

  /** Simulates the other side ending its output (EOF): delivers what is queued, then calls `onend`. */
  endInput(): void {
    queueMicrotask(() => queueMicrotask(() => this.onend?.()));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    const other = this.other;
    this.other = undefined;
    this.onclose?.();
    if (other && !other.closed) {
      // What this side sent before closing still arrives, as on a real pipe.
      if (other.#started) other.#drain();
      await other.close();
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** One end of an in-memory pair; `injectRaw` feeds it text as if it came off a wire. */
export interface LinkedTransportEnd extends Transport {
  readonly closed: boolean;
  injectRaw(text: string): void;
  /** Simulates end of input on this end (like stdin EOF): `onend` fires after queued messages. */
  endInput(): void;
}

/**
 * Two transports connected back to back in memory, for tests and in-process wiring. Messages are delivered
 * asynchronously and in order; closing either end closes both (each `onclose` fires once).
 */
export function createLinkedPair(options: LinkedPairOptions = {}): [LinkedTransportEnd, LinkedTransportEnd] {
  const serialize = options.serialize ?? true;
  const a = new LinkedTransport(serialize, options.info);
  const b = new LinkedTransport(serialize, options.info);
  a.other = b;
  b.other = a;
  return [a, b];
}
