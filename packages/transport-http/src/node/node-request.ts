/**
 * A web `Request` view of a Node request (`node:http` or the `node:http2` compatibility API), built without copying
 * it: `method`, `url` and `headers` read the Node request, the body is read straight from its stream (the handler's
 * {@link BODY_READER}), and `signal` aborts when the client goes away before the response is finished. Anything
 * else a `Request` has (`clone()`, `formData()`, `cache`…) is served by a real `Request` built on first use, so
 * code that receives it (an authenticator, a tool reading `ctx.transportInfo`) sees a complete `Request`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { Readable } from 'node:stream';
import { NodeHeaders } from './node-headers.js';
import { delegateToReal } from '../server/lazy-view.js';
import { BODY_READER, ON_CLIENT_GONE, type BodyReader } from '../server/read-body.js';
import { WRITES_RAW_BODY } from '../server/responses.js';

/** A Node request of either API. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** A Node response of either API. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

const BODYLESS = new Set(['GET', 'HEAD']);

/** See the module comment. */
class NodeRequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly #req: NodeRequest;
  readonly #res: NodeResponse;
  #controller: AbortController | undefined;
  #real: Request | undefined;
  #bodyTaken = false;

  constructor(req: NodeRequest, res: NodeResponse, url: string) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? 'GET';
    this.url = url;
    this.headers = new NodeHeaders(req.headers) as unknown as Headers;
  }

  /** Aborts when the client disconnects before the response has been fully written. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const res = this.#res;
      if (res.destroyed && !res.writableFinished) controller.abort(new Error('The client disconnected'));
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('The client disconnected'));
        });
      }
    }
    return this.#controller.signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (BODYLESS.has(this.method)) return null;
    this.#bodyTaken = true;
    return Readable.toWeb(this.#req as Readable) as ReadableStream<Uint8Array>;
  }

  get bodyUsed(): boolean {
    return this.#bodyTaken;
  }

  /** Calls `callback` when the client disconnects before the response is finished (see `ON_CLIENT_GONE`). */
  [ON_CLIENT_GONE](callback: () => void): () => void {
    const res = this.#res;
    if (res.destroyed && !res.writableFinished) {
      callback();
      return () => {};
    }
    const onClose = (): void => {
      if (!res.writableFinished) callback();
    };
    res.once('close', onClose);
    return () => void res.off('close', onClose);
  }

  /** The adapter writes JSON responses from their text (`writeResponse`), so the handler skips their body streams. */
  get [WRITES_RAW_BODY](): boolean {
    return true;
  }

  /** Reads the body straight from the Node stream, stopping past `maxBytes` (see `BodyReader`). */
  [BODY_READER](maxBytes: number): ReturnType<BodyReader> {
    this.#bodyTaken = true;
    const req = this.#req;
    let cancel: (reason: Error) => void = () => {};
    const bytes = new Promise<Uint8Array | undefined>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const cleanup = (): void => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      const onData = (chunk: Buffer): void => {
        total += chunk.byteLength;
        if (total > maxBytes) {
          cleanup();
          req.pause();
          resolve(undefined);
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onClose = (): void => {
        if (!req.readableEnded) onError(new Error('The client closed the connection before sending the whole body'));
      };
      cancel = (reason) => {
        cleanup();
        req.pause();
        reject(reason);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    });
    return { bytes, cancel: (reason) => cancel(reason) };
  }

  /** The real `Request`, built on first use of anything this view does not provide itself. */
  realRequest(): Request {
    if (this.#real === undefined) {
      const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: [...(this.headers as unknown as NodeHeaders)] };
      if (!BODYLESS.has(this.method) && !this.#bodyTaken) {
        init.body = this.body;
        init.duplex = 'half';
      }
      init.signal = this.signal;
      this.#real = new Request(this.url, init);
    }
    return this.#real;
  }
}

// The view is a Request for `instanceof` and for every property it does not define itself.
delegateToReal(
  NodeRequestView.prototype,
  Request.prototype,
  new Set(['constructor', 'method', 'url', 'headers', 'signal', 'body', 'bodyUsed']),
  (self) => self.realRequest(),
);

/** A `Request` view of `req` (see the module comment), for the absolute `url`. */
export function nodeRequestView(req: NodeRequest, res: NodeResponse, url: string): Request {
  return new NodeRequestView(req, res, url) as unknown as Request;
}
