/**
 * The readiness of an HTTP server main (`--health`'s `/readyz`): not ready while draining, nor while its Redis
 * (`--redis`) does not answer a `PING` within a bounded time. The Redis answer is cached briefly, so that probes
 * from several load balancers and an orchestrator never add up to a load on Redis.
 */
import type { Readiness } from '@wiremcp/transport-http';

/** How long `/readyz` waits for Redis to answer a `PING`, in ms. */
export const READY_PING_TIMEOUT_MS = 1000;
/** How long a Redis check is reused by later probes, in ms. */
export const READY_CACHE_MS = 1000;

/** Options of {@link createReadiness}. */
export interface ReadinessOptions {
  /** True once the process is draining (SIGTERM received): then never ready again. */
  readonly draining: () => boolean;
  /**
   * Sends one `PING`, when shared state is configured: `RedisState.ping()`, on a connection of its own — on the
   * command connection it would wait behind every command in flight.
   */
  readonly ping?: () => Promise<unknown>;
  readonly pingTimeoutMs?: number;
  readonly cacheMs?: number;
  /** The clock (tests pass a fake one). */
  readonly now?: () => number;
}

/**
 * A readiness check for `createHttpHandler`'s `health.ready`. One `PING` is in flight at most; its result serves
 * every probe for `cacheMs`. A `PING` that fails or does not answer in `pingTimeoutMs` is `redis unreachable` (the
 * reason shown to anyone: no address, no error text); an answer that arrived while the process was busy past the
 * timeout still counts.
 */
export function createReadiness(options: ReadinessOptions): () => Promise<Readiness> {
  const timeoutMs = options.pingTimeoutMs ?? READY_PING_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? READY_CACHE_MS;
  const now = options.now ?? Date.now;
  let checked: { at: number; reachable: boolean } | undefined;
  let pending: Promise<boolean> | undefined;
  const check = async (ping: () => Promise<unknown>): Promise<boolean> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      // Once due, the event loop first reads what arrived (setImmediate runs after the turn's I/O): a process that got
      // no CPU for longer than the timeout must not call a Redis that answered in time unreachable.
      timer = setTimeout(() => setImmediate(() => resolve(false)), timeoutMs);
    });
    try {
      return await Promise.race([
        ping().then(
          () => true,
          () => false,
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  return async () => {
    if (options.draining()) return { ready: false, reason: 'draining' };
    const ping = options.ping;
    if (ping === undefined) return { ready: true };
    if (checked === undefined || now() - checked.at >= cacheMs) {
      pending ??= check(ping).then((reachable) => {
        checked = { at: now(), reachable };
        pending = undefined;
        return reachable;
      });
      await pending;
    }
    if (options.draining()) return { ready: false, reason: 'draining' };
    return checked!.reachable ? { ready: true } : { ready: false, reason: 'redis unreachable' };
  };
}
