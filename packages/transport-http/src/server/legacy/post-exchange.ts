/**
 * The answer to one legacy POST carrying requests (one request, or a 2025-03-26 batch): JSON when the response
 * is the first thing the server sends for it, an SSE stream from the first related message on (a notification, or
 * a request to the client such as sampling or elicitation). The stream ends once every request of the POST is
 * answered.
 */
import type { RequestId } from '@wiremcp/protocol';
import { emptyResponse, jsonResponse } from '../responses.js';
import type { SseConnection } from '../sse-connection.js';
import type { LegacyStream } from './legacy-stream.js';
import type { HttpReply } from '../adapter-contract.js';

/** The error ending a streamed request whose session ended on the process running it before it was answered. */
const ABANDONED = {
  code: -32603,
  message: 'Internal error: the session ended on the server process running this request before it finished',
  data: { reason: 'session-ended' },
};

/** What an exchange needs from its session to stream. */
export interface ExchangeHost {
  /**
   * Opens a new logical stream for the requests `ids` on a new connection (primed), or `undefined` when the stream
   * limits are reached.
   */
  openStream(ids: readonly RequestId[]): { stream: LegacyStream; connection: SseConnection } | undefined;
}

/** See the module comment. */
export class PostExchange {
  /** The HTTP response, once decided. */
  readonly response: Promise<HttpReply>;
  /** Headers added to the response (e.g. `Mcp-Session-Id` on the initialize result). */
  readonly headers: Record<string, string> | undefined;
  /** Every request of the POST, in order (what the session routes to this exchange). */
  readonly ids: readonly RequestId[];
  readonly #host: ExchangeHost;
  /** The requests not answered yet: a set for a batch; for one request (nearly every POST), a count of 1 or 0. */
  readonly #outstanding: Set<RequestId> | undefined;
  #owed: number;
  #resolve!: (response: HttpReply) => void;
  #stream: LegacyStream | undefined;
  /** The SSE reply, once streaming. */
  #reply: HttpReply | undefined;
  #state: 'pending' | 'streaming' | 'done' = 'pending';

  constructor(host: ExchangeHost, ids: readonly RequestId[], headers?: Record<string, string>) {
    this.#host = host;
    this.ids = ids;
    this.#outstanding = ids.length > 1 ? new Set(ids) : undefined;
    this.#owed = this.#outstanding?.size ?? ids.length;
    this.headers = headers;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** True once every request of the POST was answered (or the exchange was ended). */
  get done(): boolean {
    return this.#state === 'done';
  }

  /** The requests not answered yet. */
  get outstanding(): ReadonlySet<RequestId> {
    return this.#outstanding ?? new Set(this.#owed === 0 ? [] : this.ids);
  }

  /** Takes `id` off the requests owed; false when it was not owed. */
  #settle(id: RequestId): boolean {
    if (this.#outstanding !== undefined) {
      if (!this.#outstanding.delete(id)) return false;
      this.#owed = this.#outstanding.size;
      return true;
    }
    if (this.#owed === 0 || id !== this.ids[0]) return false;
    this.#owed = 0;
    return true;
  }

  /**
   * The stream to send a related message on, switching the answer to SSE; `undefined` when the exchange is done
   * or no stream can be opened (the caller then routes the message elsewhere).
   */
  stream(): LegacyStream | undefined {
    if (this.#state === 'streaming') return this.#stream;
    if (this.#state === 'done') return undefined;
    const opened = this.#host.openStream([...this.outstanding]);
    if (opened === undefined) return undefined;
    this.#state = 'streaming';
    this.#stream = opened.stream;
    this.#reply = opened.connection.response;
    if (this.headers) for (const [name, value] of Object.entries(this.headers)) opened.connection.response.headers.set(name, value);
    this.#resolve(opened.connection.response);
    return opened.stream;
  }

  /**
   * Delivers the response (JSON text) to the requests `ids`; ends the exchange once none is left. `retryAfter` (the
   * headers of a rate-limited error) makes a POST whose only request it answers a 429.
   */
  respond(json: string, ids: readonly RequestId[], retryAfter?: Record<string, string>): void {
    const alone = this.#owed === 1 && ids.length === 1;
    for (let i = 0; i < ids.length; i++) this.#settle(ids[i]!);
    if (this.#state === 'pending') {
      this.#state = 'done';
      if (retryAfter !== undefined && alone) this.#resolve(jsonResponse(429, json, { ...this.headers, ...retryAfter }));
      else this.#resolve(jsonResponse(200, json, this.headers));
      return;
    }
    if (this.#state !== 'streaming') return;
    this.#stream!.send(json);
    if (this.#owed === 0) this.#end();
  }

  /** A request of the exchange was cancelled by the client: it gets no response; the exchange ends once none is left. */
  cancelled(id: RequestId): void {
    if (!this.#settle(id) || this.#owed > 0) return;
    if (this.#state === 'pending') {
      // The client gave up on the request: end the POST without a body, as for one carrying no request.
      this.#state = 'done';
      this.#resolve(emptyResponse(202, this.headers));
    } else this.#end();
  }

  /** SEP-1699 polling: closes the connection now (opening the stream first if needed); the client resumes. */
  disconnect(): void {
    this.stream()?.disconnect();
  }

  /**
   * Ends the exchange because the session ended here (closed, deleted, this process shutting down): a pending POST
   * gets `fallback(ids)` (the requests still owed); a stream gets an error for each request still owed (stored, so a
   * client resuming it elsewhere hears it too), then ends. A reply that leaves requests unanswered is marked `cut`.
   */
  abandon(fallback: (ids: readonly RequestId[]) => HttpReply): void {
    const owed = this.#state !== 'done' && this.#owed > 0;
    if (this.#state === 'pending') {
      this.#state = 'done';
      const reply = fallback([...this.outstanding]);
      reply.cut = owed;
      this.#resolve(reply);
      return;
    }
    if (this.#state === 'streaming') {
      for (const id of this.outstanding) this.#stream!.send(JSON.stringify({ jsonrpc: '2.0', id, error: ABANDONED }));
      if (owed) this.#reply!.cut = true;
    }
    this.#end();
  }

  #end(): void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    this.#stream?.finish();
  }
}
