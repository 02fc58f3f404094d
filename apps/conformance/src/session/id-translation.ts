/**
 * Request ids of cells that share one server process.
 *
 * Scenarios number their requests from 1 or 2. When several cells run one after another on one stdio process —
 * one legacy session, or one modern connection — the ids they send must not repeat: a legacy requestor "MUST NOT"
 * reuse an id within a session, and an answer that comes late must never be taken for the answer of a later cell.
 * So the k-th cell on a shared process sends integer ids shifted into a band of its own (`id + (k + 1) · 10^6`)
 * and string ids with a prefix (`c<k>~id`); what comes back is shifted back before the cell sees it. Scenarios,
 * patterns and transcripts keep the ids as written.
 *
 * Translated: the id of every request the cell sends (batches included), `requestId` of the cancellations it
 * sends, and on the way back the id of every response, the subscription id a 2026-07-28 listen stream puts in
 * `_meta`, and `requestId` of a server's cancellation that names one of the cell's requests (a listen stream the
 * server ends). Not translated: ids the server chose (its requests, the client's replies to them), ids outside
 * ±500,000 (the band's half width) and bytes sent as they are (`sendRaw`, `sendPayload` text).
 */

const BAND = 1_000_000;
const HALF = BAND / 2;
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The id mapping of one cell; `slot` undefined means the cell has its process to itself (nothing changes). */
export class IdTranslation {
  readonly #offset: number;
  readonly #prefix: string;

  constructor(readonly slot: number | undefined) {
    this.#offset = slot === undefined ? 0 : (slot + 1) * BAND;
    this.#prefix = slot === undefined ? '' : `c${slot}~`;
  }

  /** True when ids change on the wire. */
  get active(): boolean {
    return this.slot !== undefined;
  }

  /** One id, cell → wire. */
  out(id: unknown): unknown {
    if (!this.active) return id;
    if (typeof id === 'number' && Number.isInteger(id) && Math.abs(id) < HALF) return id + this.#offset;
    if (typeof id === 'string') return `${this.#prefix}${id}`;
    return id;
  }

  /** One id, wire → cell. Ids of other cells or of the server are left as they are. */
  in(id: unknown): unknown {
    if (!this.active) return id;
    if (typeof id === 'number' && Number.isInteger(id) && id >= this.#offset - HALF && id < this.#offset + HALF) return id - this.#offset;
    if (typeof id === 'string' && id.startsWith(this.#prefix)) return id.slice(this.#prefix.length);
    return id;
  }

  /** A message (or batch) the cell sends, as it goes on the wire. */
  outgoing(message: unknown): unknown {
    if (!this.active) return message;
    if (Array.isArray(message)) return message.map((item) => this.outgoing(item));
    if (!isObject(message) || typeof message['method'] !== 'string') return message;
    let out: JsonObject = message;
    if ('id' in message) out = { ...out, id: this.out(message['id']) };
    const params = message['params'];
    if (message['method'] === 'notifications/cancelled' && isObject(params) && 'requestId' in params) {
      out = { ...out, params: { ...params, requestId: this.out(params['requestId']) } };
    }
    return out;
  }

  /** `_meta` of a params or result object, with a subscription id (a listen request's id) translated back. */
  #withMeta(holder: JsonObject): JsonObject {
    const meta = holder['_meta'];
    if (!isObject(meta) || !(SUBSCRIPTION_ID in meta)) return holder;
    return { ...holder, _meta: { ...meta, [SUBSCRIPTION_ID]: this.in(meta[SUBSCRIPTION_ID]) } };
  }

  /**
   * A message (or batch) the server sent, as the cell sees it. Only ids in this cell's band (or with its prefix)
   * change, so an id the server chose is never mistaken for one of ours.
   */
  incoming(message: unknown): unknown {
    if (!this.active) return message;
    if (Array.isArray(message)) return message.map((item) => this.incoming(item));
    if (!isObject(message)) return message;
    if (!('method' in message)) {
      const result = message['result'];
      const out = 'id' in message ? { ...message, id: this.in(message['id']) } : { ...message };
      return isObject(result) ? { ...out, result: this.#withMeta(result) } : out;
    }
    const params = message['params'];
    if ('id' in message || !isObject(params)) return message;
    let out = this.#withMeta(params);
    // A server ends a 2026-07-28 listen stream with notifications/cancelled naming the client's listen request.
    if (message['method'] === 'notifications/cancelled' && 'requestId' in out) out = { ...out, requestId: this.in(out['requestId']) };
    return out === params ? message : { ...message, params: out };
  }

  /** A sentence for the cell's transcript, or undefined when nothing changes. */
  describe(): string | undefined {
    if (!this.active) return undefined;
    return `request ids go on the wire shifted by ${this.#offset} (strings prefixed '${this.#prefix}'), and come back shifted back`;
  }
}
