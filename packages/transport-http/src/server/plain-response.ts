/**
 * The handler's own responses (JSON answers, JSON-RPC errors, empty statuses) as plain objects that are a
 * `Response` for `instanceof` and for what the handler reads (`status`, `headers`, `body`), without the web
 * `Response` and `Headers` behind them: on Node those cost more than the rest of a small call's own work. The node
 * adapter writes them from their fields; for any other caller the handler turns them into real responses
 * (`withBody` in `responses.ts`) before returning them, so the web-standard contract of the handler is unchanged.
 */
import { delegateToReal } from './lazy-view.js';

/** Where a response built here keeps its body text (shared with the node adapter, across module copies). */
export const RAW_BODY: unique symbol = Symbol.for('@wiremcp/transport-http.raw-body') as never;

/** A mutable header list keyed by lower-cased name, with the `Headers` methods the handler and its callers use. */
export class PlainHeaders {
  /** Name (lower-cased) → value; read by the node adapter to write the head in one call. */
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

  has(name: string): boolean {
    return this.get(name) !== null;
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

  getSetCookie(): string[] {
    return this.#cookies === undefined ? [] : [...this.#cookies];
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this as unknown as Headers);
  }

  /** In name order, as `Headers` iterates; each cookie on its own. */
  *entries(): IterableIterator<[string, string]> {
    const names = Object.keys(this.record);
    if (this.#cookies !== undefined) names.push('set-cookie');
    for (const name of names.sort()) {
      if (name === 'set-cookie') for (const cookie of this.#cookies!) yield [name, cookie];
      else yield [name, this.record[name]!];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** See the module comment. `text` is the body (JSON), `undefined` for none. */
export class PlainResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly [RAW_BODY]: string | undefined;
  #real: Response | undefined;

  constructor(status: number, text: string | undefined, headers: PlainHeaders) {
    this.status = status;
    this[RAW_BODY] = text;
    this.headers = headers as unknown as Headers;
  }

  /** `null` (the text is under {@link RAW_BODY}) until a real response was needed; then that one's. */
  get body(): ReadableStream<Uint8Array> | null {
    return this.#real === undefined ? null : this.#real.body;
  }

  get bodyUsed(): boolean {
    return this.#real === undefined ? false : this.#real.bodyUsed;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get statusText(): string {
    return '';
  }

  /** The plain headers (for the node adapter). */
  get plainHeaders(): PlainHeaders {
    return this.headers as unknown as PlainHeaders;
  }

  /** A real `Response` with the same status, headers and body, built on first use of anything not defined here. */
  realResponse(): Response {
    this.#real ??= new Response(this[RAW_BODY] ?? null, { status: this.status, headers: [...this.plainHeaders] });
    return this.#real;
  }
}

// A plain response is a Response for `instanceof`, and for anything else through a real one built on demand.
delegateToReal(
  PlainResponse.prototype,
  Response.prototype,
  new Set(['constructor', 'status', 'headers', 'body', 'bodyUsed', 'ok', 'statusText']),
  (self) => self.realResponse(),
);

/** True for a response built by this module. */
export function isPlainResponse(response: Response): boolean {
  return (response as unknown) instanceof PlainResponse;
}
