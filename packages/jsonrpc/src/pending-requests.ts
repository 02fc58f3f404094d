import { LocalError, RpcError, type RequestId } from '@wiremcp/protocol';
import type { PendingRequest } from './outbound.js';
import { RequestTable } from './request-table.js';

/** A timer handle that can stop (and resume) holding the process open: Node's and Bun's `Timeout`. */
interface Unreferenceable {
  ref(): unknown;
  unref(): unknown;
}

/** Longest delay `setTimeout` takes as is (a longer one fires at once); later deadlines are re-checked then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The outbound requests awaiting a response, by id: what settles them (a response, progress, a close, a timeout)
 * lives here so that the engine only routes.
 *
 * Timeouts: one timer for all of them, armed for the earliest deadline, instead of a `setTimeout` per request
 * (creating and clearing one cost 0.1–0.35 µs per call, 3–8% of the wiremcp client's CPU with 64 calls in flight
 * over stdio). Settling a
 * request does not touch the timer; when it fires it times out the requests whose deadline has passed and re-arms
 * for the next one. Whenever no request is pending the timer never keeps a process alive alone: where timers can be
 * unreferenced (Node, Bun) it stays armed but unreferenced, and is referenced again by the next request, instead
 * of being cleared and created anew each time the last pending request settles (once per round trip when calls are
 * sequential, once per burst when pipelined: a `setTimeout` and a `clearTimeout` cost 0.3-0.5 µs together);
 * elsewhere it is cleared. When it fires with nothing pending it is simply not re-armed.
 */
export class PendingRequests {
  // Made on first use: a server session that never asks its client anything keeps no empty table. A RequestTable,
  // not a Map: a Map's replaced backing tables keep settled requests alive through scavenges (see RequestTable).
  #table: RequestTable<PendingRequest> | undefined;
  get #byId(): RequestTable<PendingRequest> {
    return (this.#table ??= new RequestTable());
  }
  readonly #expire: (pending: PendingRequest, error: LocalError) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer is armed for (`Infinity`: no timer). */
  #timerAt = Infinity;
  /** The timer is armed but unreferenced (nothing pending). */
  #idle = false;
  readonly #onTimer = (): void => this.#fire();

  /** `expire` gives up on a request whose deadline passed (the engine's abandon: it must remove it). */
  constructor(expire: (pending: PendingRequest, error: LocalError) => void) {
    this.#expire = expire;
  }

  /** How many requests are pending. */
  get size(): number {
    return this.#table?.size ?? 0;
  }

  add(pending: PendingRequest): void {
    this.#byId.set(pending);
    if (pending.deadline === Infinity) return;
    if (this.#idle) {
      this.#idle = false;
      (this.#timer as unknown as Unreferenceable).ref();
    }
    if (pending.deadline < this.#timerAt) this.#arm(pending.deadline);
  }

  /** Forgets `pending` if it is still the entry for its id. */
  remove(pending: PendingRequest): void {
    if (this.#byId.get(pending.id) === pending) this.#delete(pending.id);
  }

  /**
   * Settles the request `id` with a response: an error object becomes an `RpcError`, a result that is not an
   * object an `INVALID_RESULT` LocalError. Returns false when no request has that id.
   */
  settle(id: RequestId, result: unknown, error: unknown): boolean {
    const pending = this.#byId.get(id);
    if (!pending) return false;
    this.#delete(id);
    if (error !== undefined) pending.reject(RpcError.fromJSON(error));
    else if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      pending.reject(new LocalError('INVALID_RESULT', `The result of '${pending.method}' is not an object`, { details: result }));
    } else pending.resolve(result);
    return true;
  }

  /** Delivers `notifications/progress` params to the request whose progress token they name. */
  progress(params: Record<string, unknown> | undefined): void {
    const token = params?.progressToken;
    const pending = token === undefined ? undefined : this.#byId.get(token as RequestId);
    if (!pending?.onprogress || typeof params?.progress !== 'number') return;
    pending.progress({
      progress: params.progress,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
    });
  }

  /** Rejects and forgets every pending request. */
  rejectAll(reason: unknown): void {
    const all = this.#byId.values();
    this.#byId.clear();
    this.#disarm();
    for (const pending of all) pending.reject(reason);
  }

  #delete(id: RequestId): void {
    this.#byId.delete(id);
    if (this.#byId.size === 0) this.#rest();
  }

  /** Nothing is pending: the timer must not hold the process (see the class comment). */
  #rest(): void {
    const timer = this.#timer as unknown as Partial<Unreferenceable> | undefined;
    if (timer === undefined || this.#idle) return;
    if (typeof timer.unref === 'function' && typeof timer.ref === 'function') {
      timer.unref();
      this.#idle = true;
    } else this.#disarm();
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#idle = false;
    this.#timerAt = at;
    this.#timer = setTimeout(this.#onTimer, Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())));
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#idle = false;
  }

  /** Times out every request whose deadline has passed, then arms the timer for the earliest one left. */
  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#idle = false;
    const now = Date.now();
    const expired: PendingRequest[] = [];
    for (const pending of this.#byId.values()) if (pending.deadline <= now) expired.push(pending);
    for (const pending of expired) this.#expire(pending, pending.timeoutError(now));
    let next = Infinity;
    for (const pending of this.#byId.values()) if (pending.deadline < next) next = pending.deadline;
    if (next !== Infinity && next < this.#timerAt) this.#arm(next);
  }
}
