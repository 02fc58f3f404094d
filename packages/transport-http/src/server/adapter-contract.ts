/**
 * The contract between the handler's core and the adapters that carry HTTP to it. The core reads an
 * {@link HttpRequest} and answers an {@link HttpReply}; it never sees a web `Request` or `Response`. Two adapters
 * implement the contract: the fetch adapter (`fetch-adapter.ts`: a web `Request` in, a web `Response` out, for any
 * runtime) and the node adapter (`../node/`: a Node request read and a Node response written directly, without the
 * web objects, which on Node cost more than the rest of a small call). Everything an adapter offers beyond the web
 * standard (a direct body reader, a cheap client-gone hook, a body written from its text) is a member of these
 * types, so the core's needs are visible here and nowhere else.
 */

/** The headers of a received request, read-only; names are looked up case-insensitively. */
export interface HttpRequestHeaders {
  get(name: string): string | null;
  /** Every header, names lower-cased (for a handler's `ctx.transportInfo.headers`). */
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * A body being read: `bytes` resolves with the whole body, or `undefined` once it proved larger than the limit it
 * was read with (reading stopped there); `cancel` abandons the read, and `bytes` then rejects with the reason.
 */
export interface BodyRead {
  readonly bytes: Promise<Uint8Array | undefined>;
  cancel(reason: Error): void;
}

/** One request, as the core reads it. */
export interface HttpRequest {
  readonly method: string;
  /** The absolute URL the client asked for. */
  readonly url: string;
  /**
   * The request target as received (path and query, starting with `/`), when the adapter has it without building
   * `url`: the core then takes the path and query from it, and an adapter may build `url` only when it is read.
   */
  readonly target?: string;
  readonly headers: HttpRequestHeaders;
  /** Starts reading the body, at most `maxBytes` of it (the core checks `Content-Length` and sets the deadline). */
  readBody(maxBytes: number): BodyRead;
  /**
   * Calls `callback` once if the client goes away before the reply is fully written; returns the function that stops
   * listening. (A request whose client is already gone calls it at once.)
   */
  onClientGone(callback: () => void): () => void;
  /**
   * The request as a web `Request` without its body, for hooks whose contract is the web one (the authenticator);
   * built on first use by adapters that do not hold one.
   */
  webRequest(): Request;
}

const NO_COOKIES: readonly string[] = Object.freeze([]);

/** The mutable headers of a reply, keyed by lower-cased name; `Set-Cookie` values are kept apart, one per cookie. */
export class ReplyHeaders {
  /** Name (lower-cased) → value, every header but `Set-Cookie` (an adapter writes the head from it in one call). */
  readonly record: Record<string, string>;
  #cookies: string[] | undefined;

  constructor(init?: Readonly<Record<string, string>>) {
    const record: Record<string, string> = {};
    if (init !== undefined) for (const name in init) record[name.toLowerCase()] = init[name]!;
    this.record = record;
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === 'set-cookie') return this.#cookies === undefined ? null : this.#cookies.join(', ');
    return this.record[key] ?? null;
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.#cookies = [String(value)];
    else this.record[key] = String(value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') (this.#cookies ??= []).push(String(value));
    else this.record[key] = this.record[key] === undefined ? String(value) : `${this.record[key]}, ${value}`;
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.#cookies = undefined;
    else delete this.record[key];
  }

  /** The `Set-Cookie` values, one per cookie. */
  cookies(): readonly string[] {
    return this.#cookies ?? NO_COOKIES;
  }

  /** Every header as `[name, value]` pairs, each cookie on its own (for building a web `Headers`). */
  pairs(): [string, string][] {
    const out: [string, string][] = Object.entries(this.record);
    for (const cookie of this.cookies()) out.push(['set-cookie', cookie]);
    return out;
  }
}

/** What the core answers: a status, headers, and a body that is text (JSON), a stream (SSE), or nothing. */
export class HttpReply {
  readonly status: number;
  readonly headers: ReplyHeaders;
  /** Text is written as UTF-8 with a `Content-Length`; a stream chunk by chunk as it comes (never buffered). */
  readonly body: string | ReadableStream<Uint8Array> | undefined;
  /**
   * Set on the 404 of a path the handler does not serve: an adapter that is a middleware passes the request on
   * instead of writing the reply.
   */
  notHandled = false;
  /**
   * Set by the handler on a reply that ends requests it had to leave unanswered (their legacy session ended on this
   * process while they ran: a drain past its deadline, a DELETE): `listen` counts them in `requestsCut`.
   */
  cut = false;

  constructor(status: number, body: string | ReadableStream<Uint8Array> | undefined, headers: ReplyHeaders = new ReplyHeaders()) {
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}
