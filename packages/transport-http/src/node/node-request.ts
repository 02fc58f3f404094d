/**
 * A Node request (`node:http` or the `node:http2` compatibility API) in the adapter contract's terms
 * ({@link HttpRequest}), read without copying it: the headers are the Node header object seen through
 * {@link NodeHeaders}, the body is read straight from the request stream (no web stream) and cut off past the limit,
 * and the client's departure is the response's `close` before it finished. A web `Request` is built only when a hook
 * asks for one ({@link NodeHttpRequest.webRequest}), and {@link nodeWebRequest} makes a complete one (body and
 * signal included) for fetch handlers that are not this package's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { Readable } from 'node:stream';
import type { BodyRead, HttpRequest } from '../server/adapter-contract.js';
import { NodeHeaders } from './node-headers.js';

/** A Node request of either API. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** A Node response of either API. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

const BODYLESS = new Set(['GET', 'HEAD']);

/** See the module comment. */
export class NodeHttpRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  readonly #req: NodeRequest;
  readonly #res: NodeResponse;
  #web: Request | undefined;

  constructor(req: NodeRequest, res: NodeResponse, url: string) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? 'GET';
    this.url = url;
    this.headers = new NodeHeaders(req.headers);
  }

  onClientGone(callback: () => void): () => void {
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

  readBody(maxBytes: number): BodyRead {
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

  /** The request as a web `Request` without its body (for the authenticator), built once. */
  webRequest(): Request {
    this.#web ??= new Request(this.url, { method: this.method, headers: this.headers.pairs() });
    return this.#web;
  }
}

/**
 * A complete web `Request` for a Node request (for a fetch handler that is not this package's): the body streamed
 * from the Node request, and a `signal` that aborts when the client goes away before the response is finished.
 */
export function nodeWebRequest(req: NodeRequest, res: NodeResponse, url: string): Request {
  const method = req.method ?? 'GET';
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort(new Error('The client disconnected'));
  else {
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('The client disconnected'));
    });
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers: new NodeHeaders(req.headers).pairs(), signal: controller.signal };
  if (!BODYLESS.has(method)) {
    init.body = Readable.toWeb(req as Readable) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init);
}
