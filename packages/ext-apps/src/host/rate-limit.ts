/**
 * A token bucket: `rate` messages a second on average, bursts of `burst`. A view that floods postMessage exhausts it;
 * what it sends beyond is refused (a request gets an error) or dropped, and the host's page keeps its time.
 */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly rate: number,
    readonly burst: number,
    readonly now: () => number = () => Date.now(),
  ) {
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const now = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) / 1000) * this.rate);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
