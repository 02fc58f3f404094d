/**
 * When to try a server again after it failed to start, died, or lost its connection: exponential backoff with jitter,
 * a cap, and a number of consecutive failures after which the host gives up (until asked to restart it).
 */

/** How a failed or lost server is retried. */
export interface RestartPolicy {
  /** Delay before the first retry, in ms (default 500). */
  readonly initialDelayMs: number;
  /** Largest delay, in ms (default 30 000). */
  readonly maxDelayMs: number;
  /** Growth of the delay per consecutive failure (default 2). */
  readonly factor: number;
  /** Consecutive failed attempts before the server is marked `failed` (default 5; `Infinity` never gives up). */
  readonly maxAttempts: number;
  /** Fraction of each delay that is random, so that servers failing together do not retry in step (default 0.2). */
  readonly jitter: number;
}

/** The defaults of {@link RestartPolicy}. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, factor: 2, maxAttempts: 5, jitter: 0.2 };

/** Fills in the defaults and checks the values. */
export function restartPolicy(partial: Partial<RestartPolicy> = {}): RestartPolicy {
  const policy = { ...DEFAULT_RESTART_POLICY, ...partial };
  const check = (name: keyof RestartPolicy, ok: boolean): void => {
    if (!ok) throw new RangeError(`restart.${name} is out of range: ${String(policy[name])}`);
  };
  check('initialDelayMs', Number.isFinite(policy.initialDelayMs) && policy.initialDelayMs >= 0);
  check('maxDelayMs', Number.isFinite(policy.maxDelayMs) && policy.maxDelayMs >= policy.initialDelayMs);
  check('factor', Number.isFinite(policy.factor) && policy.factor >= 1);
  check('maxAttempts', policy.maxAttempts >= 1);
  check('jitter', policy.jitter >= 0 && policy.jitter <= 1);
  return policy;
}

/** The delay before retry number `failures` (1 for the first retry), with jitter drawn from `random`. */
export function retryDelay(policy: RestartPolicy, failures: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** Math.max(0, failures - 1));
  return Math.round(base * (1 - policy.jitter * random()));
}
