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

/** Where a request being read keeps its reader, for the listeners below (shared by every request, no closure each). */
const READER = Symbol('body reader');

type ReadRequest = NodeRequest & { [READER]?: NodeBodyRead };

function onData(this: ReadRequest, chunk: Buffer): void {
  this[READER]?.data(chunk);
}

function onEnd(this: ReadRequest): void {
  this[READER]?.end();
}

function onError(this: ReadRequest, error: Error): void {
  this[READER]?.fail(error);
}

function onClose(this: ReadRequest): void {
  if (!this.readableEnded) this[READER]?.fail(new Error('The client closed the connection before sending the whole body'));
}

/**
 * One body being read from a Node request: at most `maxBytes`, resolving with the whole body (one chunk as it came,
 * several joined), or `undefined` once it grew past the limit (reading stops and the request is paused). The listeners
 * are functions shared by every request, which find their reader on the request: a read costs this object and its
 * promise, not a closure per event.
 */
class NodeBodyRead implements BodyRead {
  readonly bytes: Promise<Uint8Array | undefined>;
  readonly #req: ReadRequest;
  readonly #maxBytes: number;
  #resolve!: (bytes: Uint8Array | undefined) => void;
  #reject!: (error: Error) => void;
  #first: Buffer | undefined;
  #rest: Buffer[] | undefined;
  #total = 0;

  constructor(req: NodeRequest, maxBytes: number) {
    this.#req = req;
    this.#maxBytes = maxBytes;
    this.bytes = new Promise<Uint8Array | undefined>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const readable = req as ReadRequest;
    readable[READER] = this;
    readable.on('data', onData);
    readable.on('end', onEnd);
    readable.on('error', onError);
    readable.on('close', onClose);
  }

  data(chunk: Buffer): void {
    this.#total += chunk.byteLength;
    if (this.#total > this.#maxBytes) {
      this.#stop();
      this.#resolve(undefined);
      return;
    }
    if (this.#first === undefined) this.#first = chunk;
    else (this.#rest ??= [this.#first]).push(chunk);
  }

  end(): void {
    // Nothing can arrive after the end: the listeners stay (they die with the request) and find no reader.
    this.#req[READER] = undefined;
    const rest = this.#rest;
    this.#resolve(rest === undefined ? (this.#first ?? Buffer.alloc(0)) : Buffer.concat(rest, this.#total));
  }

  fail(error: Error): void {
    this.#stop();
    this.#reject(error);
  }

  cancel(reason: Error): void {
    this.fail(reason);
  }

  /** Stops reading: the listeners go and the request is paused (what is left of it is never buffered here). */
  #stop(): void {
    const req = this.#req;
    req[READER] = undefined;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
    req.pause();
    this.#first = this.#rest = undefined;
  }
}

/** Where a response keeps the callback of {@link NodeHttpRequest.onClientGone}, for the shared listener below. */
const GONE = Symbol('client gone');

type WatchedResponse = NodeResponse & { [GONE]?: (() => void) | undefined };

function onResponseClose(this: WatchedResponse): void {
  const callback = this[GONE];
  if (callback === undefined) return;
  this[GONE] = undefined;
  if (!this.writableFinished) callback();
}

function forgetCallback(this: WatchedResponse, callback: () => void): void {
  if (this[GONE] === callback) this[GONE] = undefined;
}

const NO_OP = (): void => {};

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request target as received (Express's `originalUrl` when mounted), starting with `/`. */
function requestTarget(req: NodeRequest): string {
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * The absolute URL of a Node request: its scheme and host (with `trustProxy`, the `X-Forwarded-Proto` and
 * `X-Forwarded-Host` a proxy set) and its target as received.
 */
export function requestUrl(req: NodeRequest, trustProxy: boolean, target = requestTarget(req)): string {
  const headers = req.headers;
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  let scheme = firstHeader(headers[':scheme']) ?? (encrypted ? 'https' : 'http');
  let host = firstHeader(headers[':authority']) ?? headers.host ?? 'localhost';
  if (trustProxy) {
    scheme = firstHeader(headers['x-forwarded-proto'])?.split(',')[0]?.trim() || scheme;
    host = firstHeader(headers['x-forwarded-host'])?.split(',')[0]?.trim() || host;
  }
  return `${scheme}://${host}${target}`;
}

/** See the module comment. The absolute URL is built only when read (the core routes on {@link target}). */
export class NodeHttpRequest implements HttpRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: NodeHeaders;
  readonly #req: NodeRequest;
  readonly #res: NodeResponse;
  readonly #trustProxy: boolean;
  #url: string | undefined;
  #web: Request | undefined;

  constructor(req: NodeRequest, res: NodeResponse, trustProxy: boolean) {
    this.#req = req;
    this.#res = res;
    this.#trustProxy = trustProxy;
    this.method = req.method ?? 'GET';
    this.target = requestTarget(req);
    this.headers = new NodeHeaders(req.headers);
  }

  get url(): string {
    this.#url ??= requestUrl(this.#req, this.#trustProxy, this.target);
    return this.#url;
  }

  /**
   * The response's `close` reaches `callback` through one listener shared by every response, which finds the callback
   * on the response: no `once` wrapper and no closure per request. Stopping forgets the callback (the listener dies
   * with the response). A second callback while one is held gets a listener of its own.
   */
  onClientGone(callback: () => void): () => void {
    const res = this.#res as WatchedResponse;
    if (res.destroyed && !res.writableFinished) {
      callback();
      return NO_OP;
    }
    if (res[GONE] === undefined) {
      res[GONE] = callback;
      res.on('close', onResponseClose);
      return forgetCallback.bind(res, callback);
    }
    const onClose = (): void => {
      if (!res.writableFinished) callback();
    };
    res.once('close', onClose);
    return () => void res.off('close', onClose);
  }

  readBody(maxBytes: number): BodyRead {
    return new NodeBodyRead(this.#req, maxBytes);
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
