/**
 * `NodeHeaders`: the headers of a received Node message (`node:http` or the `node:http2` compatibility API) read
 * without copying them: the server adapter's request headers (`HttpRequestHeaders` of the adapter contract), and the
 * `headers` of `nodeFetch`'s responses (where the client transports read them as a `Headers`).
 */
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A read-only `Headers` over a Node message's header object (a request's or a response's; names are lower-cased
 * there already), built without copying it: a web `Headers` per message costs more than the rest of a small call.
 */
export class NodeHeaders {
  readonly #raw: IncomingHttpHeaders;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#raw['set-cookie'];
    return value === undefined ? [] : [...value];
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this as unknown as Headers);
  }

  /** Every header as `[name, value]` pairs (for building a web `Request`). */
  pairs(): [string, string][] {
    return [...this.entries()];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#raw).sort()) {
      if (name.startsWith(':')) continue;
      const value = this.get(name);
      if (value !== null) yield [name, value];
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

  append(): never {
    throw new TypeError('The headers of a received message are immutable');
  }
  set(): never {
    throw new TypeError('The headers of a received message are immutable');
  }
  delete(): never {
    throw new TypeError('The headers of a received message are immutable');
  }
}
