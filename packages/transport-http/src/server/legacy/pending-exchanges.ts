/**
 * The requests of a session's POSTs being answered, by id (a batch's exchange is under each of its ids): where the
 * session transport routes each answer.
 *
 * A {@link RequestTable}, not a `Map`: a session lives long and adds and deletes an entry per request, and V8 makes a
 * `Map`'s replacement backing table in the generation of the one it replaces, so once the session's `Map` was old,
 * every answered request left a dead table of about 160 bytes in the old generation (measured on sequential calls in
 * one session; full collections came back under load). The table is made at the first request: an idle session holds
 * none.
 */
import { RequestTable } from '@wiremcp/jsonrpc';
import type { RequestId } from '@wiremcp/protocol';
import type { PostExchange } from './post-exchange.js';

interface Pending {
  readonly id: RequestId;
  readonly exchange: PostExchange;
}

export class PendingExchanges {
  #table: RequestTable<Pending> | undefined;

  /** How many request ids are pending. */
  get size(): number {
    return this.#table?.size ?? 0;
  }

  /** The exchange answering request `id`. */
  get(id: RequestId): PostExchange | undefined {
    const table = this.#table;
    return table === undefined || table.size === 0 ? undefined : table.get(id)?.exchange;
  }

  has(id: RequestId): boolean {
    return this.get(id) !== undefined;
  }

  /** Routes the answers to the requests of `exchange` to it. */
  register(exchange: PostExchange): void {
    const table = (this.#table ??= new RequestTable(4));
    for (const id of exchange.ids) table.set({ id, exchange });
  }

  delete(id: RequestId): void {
    this.#table?.delete(id);
  }

  /** Removes every entry and returns the exchanges they named, each once. */
  takeAll(): Set<PostExchange> {
    const exchanges = new Set((this.#table?.values() ?? []).map((pending) => pending.exchange));
    this.#table?.clear();
    return exchanges;
  }
}
