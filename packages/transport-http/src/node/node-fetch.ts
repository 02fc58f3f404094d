/**
 * `nodeFetch`: a `fetch` for the client transports on Node, made on `node:http`/`node:https` with a keep-alive
 * agent. Node's global `fetch` (undici) wraps every exchange in web streams, a `Request`, WHATWG header lists and
 * several promise layers: on a small MCP call that is most of the client's CPU. This one sends the body as it is
 * and gives back a `Response` view that reads a JSON body straight from the socket (`text()`), and builds a web
 * stream only when `body` is asked for (an SSE stream).
 *
 * It covers what the MCP client transports use: string or byte bodies, header records, `signal`. Redirects are
 * not followed (the response is returned as it is, like `redirect: 'manual'`); anything else in `RequestInit` is
 * ignored. Failures reject with a `TypeError('fetch failed')` whose `cause` is the network error, as undici does.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { FetchLike } from '../client/options.js';
import { NodeHeaders } from './node-headers.js';

/** Options of {@link nodeFetch}. */
export interface NodeFetchOptions {
  /** Most sockets per origin (default `Infinity`, as Node's agents). */
  readonly maxSockets?: number;
  /** Idle sockets kept per origin for reuse (default 256). */
  readonly maxFreeSockets?: number;
  /**
   * Dial this Unix domain socket for every request instead of the URL's host and port (`--http unix:/path.sock`
   * servers); the URL still gives the path and the `Host` header, e.g. `http://localhost/mcp`.
   */
  readonly socketPath?: string;
}

/** A fetch made by {@link nodeFetch}; `close()` ends its idle keep-alive sockets. */
export interface NodeFetch extends FetchLike {
  close(): void;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (!(headers instanceof Headers) && !Array.isArray(headers)) return headers as Record<string, string>;
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (record[name] = value));
  return record;
}

function failed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** See the module comment. */
class NodeResponseView {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic';
  readonly #res: IncomingMessage;
  readonly #nullBody: boolean;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #used = false;

  constructor(res: IncomingMessage, url: string, head: boolean) {
    this.#res = res;
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.url = url;
    this.headers = new NodeHeaders(res.headers) as unknown as Headers;
    this.#nullBody = head || NULL_BODY.has(this.status);
    if (this.#nullBody) res.resume();
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#nullBody) return null;
    if (this.#body === undefined) {
      if (this.#used) throw new TypeError('The body has already been read');
      this.#used = true;
      this.#body = Readable.toWeb(this.#res) as ReadableStream<Uint8Array>;
    }
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** Reads the whole body straight from the socket (no web stream), unless `body` was taken already. */
  bytes(): Promise<Uint8Array> {
    if (this.#nullBody) return Promise.resolve(new Uint8Array(0));
    if (this.#used) return Promise.reject(new TypeError('The body has already been read'));
    this.#used = true;
    const res = this.#res;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      res.once('error', (error) => reject(failed(error)));
      res.once('close', () => {
        if (!res.readableEnded) reject(failed(new Error('The connection closed before the whole body was received')));
      });
    });
  }

  async text(): Promise<string> {
    return Buffer.from(await this.bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    return new Blob([(await this.bytes()) as Uint8Array<ArrayBuffer>], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): Response {
    throw new TypeError('A response of nodeFetch cannot be cloned');
  }
}
// The view is a Response for `instanceof`; members it does not define (formData) are not supported.
Object.setPrototypeOf(NodeResponseView.prototype, Response.prototype);

/**
 * Creates a fetch on `node:http`/`node:https` with its own keep-alive agents; pass it as the `fetch` option of
 * `StreamableHttpClientTransport`, `SseClientTransport` or `httpTransportFactory`. See the module comment for what
 * it covers.
 */
export function nodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const socketPath = options.socketPath;
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity, maxFreeSockets: options.maxFreeSockets ?? 256 };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  // The request options of the last URL (a client transport posts to one URL): Node would convert the URL anew for
  // every request.
  let lastInput: string | URL | undefined;
  let lastHref = '';
  let lastTarget: { url: URL; options: RequestOptions } | undefined;
  const target = (input: string | URL): { url: URL; options: RequestOptions } => {
    if (lastTarget !== undefined && input === lastInput && (typeof input === 'string' || input.href === lastHref)) return lastTarget;
    const url = typeof input === 'string' ? new URL(input) : input;
    const options: RequestOptions = {
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      path: `${url.pathname}${url.search}`,
    };
    if (url.port !== '') options.port = Number(url.port);
    if (socketPath !== undefined) options.socketPath = socketPath;
    if (url.username !== '' || url.password !== '')
      options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    lastInput = input;
    lastHref = url.href;
    lastTarget = { url, options };
    return lastTarget;
  };
  const fetch = (input: string | URL, init: RequestInit): Promise<Response> => {
    const { url, options: base } = target(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new TypeError(`nodeFetch: unsupported URL scheme ${url.protocol}`));
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      return Promise.reject(new TypeError('nodeFetch: only string and Uint8Array bodies are supported'));
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = (init.method ?? 'GET').toUpperCase();
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const headers = headerRecord(init.headers);
      const req = (secure ? httpsRequest : httpRequest)({ ...base, method, headers, agent: secure ? https : http });
      // One abort listener for the whole exchange (listeners on an AbortSignal cost more than the rest of a small
      // call): before the headers it fails the fetch, after them it ends the body (the reader sees the stream fail),
      // as fetch does.
      let response: IncomingMessage | undefined;
      const onAbort = (): void => {
        const reason = signal!.reason instanceof Error ? signal!.reason : new Error('aborted');
        if (response !== undefined) {
          response.destroy(reason);
          return;
        }
        reject(signal!.reason);
        req.destroy(reason);
      };
      const stopListening = (): void => signal?.removeEventListener('abort', onAbort);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('response', (res) => {
        response = res;
        if (signal !== undefined) res.once('close', stopListening);
        resolve(new NodeResponseView(res, url.href, method === 'HEAD') as unknown as Response);
      });
      req.once('error', (error) => {
        stopListening();
        reject(signal?.aborted ? signal.reason : failed(error));
      });
      req.end(body ?? undefined);
    });
  };
  return Object.assign(fetch, {
    close: () => {
      http.destroy();
      https.destroy();
    },
  });
}
