/**
 * When to reconnect an SSE stream: exponential backoff with jitter, bounded, and never earlier than the server's
 * `retry` (2025-11-25 polling: the client MUST honour it). The first reconnection after a stream the server
 * closed on purpose waits exactly `retry`, so a polling server sees the client when it asked to.
 */
import { LocalError } from '@wiremcp/protocol';
import type { ReconnectOptions } from './options.js';

/** Defaults of {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT = { initialDelayMs: 1000, maxDelayMs: 30_000, growFactor: 1.5, maxRetries: 5 } as const;

/** The reconnection policy with defaults applied. */
export class Backoff {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly growFactor: number;
  readonly maxRetries: number;
  readonly #random: () => number;

  constructor(options: ReconnectOptions = {}, random: () => number = Math.random) {
    this.initialDelayMs = nonNegative(options.initialDelayMs, DEFAULT_RECONNECT.initialDelayMs, 'reconnect.initialDelayMs');
    this.maxDelayMs = nonNegative(options.maxDelayMs, DEFAULT_RECONNECT.maxDelayMs, 'reconnect.maxDelayMs');
    this.maxRetries = nonNegative(options.maxRetries, DEFAULT_RECONNECT.maxRetries, 'reconnect.maxRetries');
    const grow = options.growFactor ?? DEFAULT_RECONNECT.growFactor;
    if (!(grow >= 1) || !Number.isFinite(grow)) throw new LocalError('INVALID_ARGUMENT', 'reconnect.growFactor must be at least 1');
    this.growFactor = grow;
    this.#random = random;
  }

  /**
   * The delay before reconnection number `attempt` (0 for the first) when the server last said `retry` (or
   * nothing): `retry` itself for the first one, then the larger of `retry` and the jittered exponential delay.
   */
  delay(attempt: number, retry: number | undefined): number {
    if (retry !== undefined && attempt === 0) return retry;
    const exponential = Math.min(this.maxDelayMs, this.initialDelayMs * this.growFactor ** attempt);
    const jittered = exponential * (0.5 + 0.5 * this.#random());
    return Math.max(retry ?? 0, Math.round(jittered));
  }
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new LocalError('INVALID_ARGUMENT', `${name} must be a non-negative number`);
  return value;
}

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
