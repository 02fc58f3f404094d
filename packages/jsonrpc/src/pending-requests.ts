import { LocalError, RpcError, type RequestId } from '@wiremcp/protocol';
import type { PendingRequest } from './outbound.js';

/**
 * The outbound requests awaiting a response, by id: what settles them (a response, progress, a close) lives
 * here so that the engine only routes.
 */
export class PendingRequests {
  readonly #byId = new Map<RequestId, PendingRequest>();

  /** How many requests are pending. */
  get size(): number {
    return this.#byId.size;
  }

  add(pending: PendingRequest): void {
    this.#byId.set(pending.id, pending);
  }

  /** Forgets `pending` if it is still the entry for its id. */
  remove(pending: PendingRequest): void {
    if (this.#byId.get(pending.id) === pending) this.#byId.delete(pending.id);
  }

  /**
   * Settles the request `id` with a response: an error object becomes an `RpcError`, a result that is not an
   * object an `INVALID_RESULT` LocalError. Returns false when no request has that id.
   */
  settle(id: RequestId, result: unknown, error: unknown): boolean {
    const pending = this.#byId.get(id);
    if (!pending) return false;
    this.#byId.delete(id);
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
    const all = [...this.#byId.values()];
    this.#byId.clear();
    for (const pending of all) pending.reject(reason);
  }
}
