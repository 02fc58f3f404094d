/**
 * The fetch adapter: the handler core served through web-standard objects, on any runtime. A web `Request` becomes
 * an {@link HttpRequest} (its body read from `request.body` under the limit, the client's departure heard on
 * `request.signal`), and an {@link HttpReply} a web `Response`. Also turns the web `Response` a hook answers with
 * (the authenticator's refusals and metadata documents) into a reply.
 */
import { HttpReply, ReplyHeaders, type BodyRead, type HttpRequest } from './adapter-contract.js';

const EMPTY = new Uint8Array(0);

/** A web `Request` as the core reads it. */
export class WebHttpRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly #request: Request;

  constructor(request: Request) {
    this.#request = request;
    this.method = request.method;
    this.url = request.url;
    this.headers = request.headers;
  }

  readBody(maxBytes: number): BodyRead {
    const body = this.#request.body;
    if (body === null) return { bytes: Promise.resolve(EMPTY), cancel: () => {} };
    const reader = body.getReader();
    let cancelled: Error | undefined;
    const bytes = (async (): Promise<Uint8Array | undefined> => {
      const chunks: Uint8Array[] = [];
      let total = 0;
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          throw cancelled ?? error;
        }
        if (cancelled !== undefined) throw cancelled;
        if (next.done) break;
        total += next.value.byteLength;
        if (total > maxBytes) {
          reader.cancel().catch(() => {});
          return undefined;
        }
        chunks.push(next.value);
      }
      if (chunks.length === 1) return chunks[0]!;
      const all = new Uint8Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        all.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return all;
    })();
    return {
      bytes,
      cancel: (reason) => {
        cancelled = reason;
        reader.cancel(reason).catch(() => {});
      },
    };
  }

  onClientGone(callback: () => void): () => void {
    const signal = this.#request.signal;
    if (signal.aborted) {
      callback();
      return () => {};
    }
    signal.addEventListener('abort', callback, { once: true });
    return () => signal.removeEventListener('abort', callback);
  }

  webRequest(): Request {
    return this.#request;
  }
}

/** `reply` as a web `Response`. */
export function webResponse(reply: HttpReply): Response {
  return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers.pairs() });
}

/** A web `Response` (a hook's answer) as a reply: its status, headers and body stream. */
export function replyFromWeb(response: Response): HttpReply {
  const headers = new ReplyHeaders();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.set(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return new HttpReply(response.status, response.body ?? undefined, headers);
}
