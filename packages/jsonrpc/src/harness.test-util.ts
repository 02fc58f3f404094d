import { createLinkedPair, type LinkedTransportEnd } from './linked-pair.js';
import { Peer } from './peer.js';
import type { PeerOptions } from './types.js';

/** A peer wired to a raw transport end whose received messages are recorded. */
export interface RawHarness {
  peer: Peer;
  raw: LinkedTransportEnd;
  received: unknown[];
  /** Sends a message from the raw side to the peer. */
  send(message: unknown): void;
  /** Waits until `count` messages have been received on the raw side (or fails after `maxTurns` turns of the event loop). */
  waitFor(count: number, maxTurns?: number): Promise<unknown[]>;
  /** Lets queued microtasks and due timers run (one macrotask turn; not a wall-clock wait). */
  settle(): Promise<void>;
  internalErrors: unknown[];
}

/** Builds a {@link RawHarness}; the peer is connected and started. */
export async function rawHarness(options: PeerOptions = {}): Promise<RawHarness> {
  const [a, b] = createLinkedPair();
  const internalErrors: unknown[] = [];
  const peer = new Peer({ onInternalError: (error) => internalErrors.push(error), ...options });
  const received: unknown[] = [];
  b.onmessage = (message) => received.push(message);
  await peer.connect(a);
  await b.start();
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    peer,
    raw: b,
    received,
    internalErrors,
    send: (message) => a.injectRaw(typeof message === 'string' ? message : JSON.stringify(message)),
    settle,
    async waitFor(count, maxTurns = 10_000) {
      for (let turns = 0; received.length < count; turns++) {
        if (turns >= maxTurns) throw new Error(`expected ${count} messages, got ${received.length}: ${JSON.stringify(received)}`);
        await settle();
      }
      return received;
    },
  };
}

/** A promise and the functions that settle it: lets a test decide when a handler finishes, instead of sleeping. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** Creates a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
