/**
 * `toNodeHandler`: a fetch handler (`createHttpHandler`'s, or any `(Request) => Promise<Response>`) as a Node
 * request listener — for `http.createServer`, `http2.createSecureServer` (compatibility API), and as an
 * Express/Connect-style `(req, res, next)` middleware.
 */
import type { HttpReply, HttpRequest } from '../server/adapter-contract.js';
import type { HttpConnectionInfo } from '../server/request-checks.js';
import { rpcErrorResponse } from '../server/responses.js';
import { lingerIfUnread } from './linger.js';
import { NodeHttpRequest, nodeWebRequest, type NodeRequest, type NodeResponse } from './node-request.js';
import { writeReply, writeWebResponse } from './write-response.js';

/** A fetch handler, optionally told about the connection (as `createHttpHandler`'s handler is). */
export type FetchHandler = (request: Request, connection?: HttpConnectionInfo) => Promise<Response>;

/**
 * A handler that also serves requests in the adapter contract's terms (`createHttpHandler`'s `HttpHandler` is one):
 * the node adapter calls `serve` with its own request type and writes the reply itself, without web objects.
 */
export interface ContractHandler extends FetchHandler {
  serve(request: HttpRequest, connection?: HttpConnectionInfo): Promise<HttpReply>;
}

/** A Node request listener that is also a middleware (`next` is called for paths the handler does not serve). */
export type NodeHandler = (req: NodeRequest, res: NodeResponse, next?: (error?: unknown) => void) => void;

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Use `X-Forwarded-Proto`/`X-Forwarded-Host` for the request URL (default false: only behind a proxy you run,
   * since clients can set them). The `Host` check still applies to the `Host` header.
   */
  readonly trustProxy?: boolean;
  /** Receives errors of the adapter itself (a handler that threw); default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The absolute URL of a Node request (the path as received; Express's `originalUrl` when mounted). */
function requestUrl(req: NodeRequest, trustProxy: boolean): string {
  const headers = req.headers;
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  let scheme = firstHeader(headers[':scheme']) ?? (encrypted ? 'https' : 'http');
  let host = firstHeader(headers[':authority']) ?? headers.host ?? 'localhost';
  if (trustProxy) {
    scheme = firstHeader(headers['x-forwarded-proto'])?.split(',')[0]?.trim() || scheme;
    host = firstHeader(headers['x-forwarded-host'])?.split(',')[0]?.trim() || host;
  }
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  return `${scheme}://${host}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * The reply a Node response was written from (served through the adapter contract), for `listen` to read whether the
 * handler marked it `cut`: only replies that are cut already or may still be marked (a stream, cut while it runs), so
 * that a plain JSON answer, the hot path, adds no entry.
 */
export const servedReplies = new WeakMap<object, HttpReply>();

/**
 * Adapts `handler` to Node. `createHttpHandler`'s handler is served through the adapter contract: the Node request
 * is read directly (headers without a copy, the body from the request stream under the handler's limits), and the
 * reply written without buffering SSE. Any other fetch handler gets a web `Request` (its `signal` aborting when the
 * client disconnects) and has its `Response` written. A client that disconnects cancels the response body. Called
 * with `next` (as middleware), requests for paths the handler does not serve are passed on.
 */
export function toNodeHandler(handler: ContractHandler | FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const trustProxy = options.trustProxy ?? false;
  const onError = options.onError ?? ((error: unknown) => console.error('[@wiremcp/transport-http/node]', error));
  const failed = (error: unknown, res: NodeResponse): Promise<void> | undefined => {
    onError(error);
    if (!res.headersSent) return writeReply(rpcErrorResponse(500, null, -32603, 'Internal error'), res);
    res.end();
    return undefined;
  };
  const serve = (handler as Partial<ContractHandler>).serve;
  if (typeof serve === 'function') {
    return (req, res, next) => {
      let request: NodeHttpRequest;
      let connection: HttpConnectionInfo;
      try {
        request = new NodeHttpRequest(req, res, requestUrl(req, trustProxy));
        connection = connectionOf(req);
      } catch {
        void writeReply(rpcErrorResponse(400, null, -32600, 'Bad request: the request URL is malformed'), res);
        return;
      }
      serve.call(handler, request, connection).then(
        (reply) => {
          if (next !== undefined && reply.notHandled) {
            next();
            return undefined;
          }
          lingerIfUnread(req, reply.headers.get('connection'));
          if (reply.cut || (reply.body !== undefined && typeof reply.body !== 'string')) servedReplies.set(res, reply);
          return writeReply(reply, res);
        },
        (error: unknown) => failed(error, res),
      );
    };
  }
  return (req, res) => {
    let request: Request;
    try {
      request = nodeWebRequest(req, res, requestUrl(req, trustProxy));
    } catch {
      void writeReply(rpcErrorResponse(400, null, -32600, 'Bad request: the request URL is malformed'), res);
      return;
    }
    handler(request, connectionOf(req)).then(
      (response) => {
        lingerIfUnread(req, response.headers.get('connection'));
        return writeWebResponse(response, res);
      },
      (error: unknown) => failed(error, res),
    );
  };
}

function connectionOf(req: NodeRequest): HttpConnectionInfo {
  const socket = req.socket as { localAddress?: string; localPort?: number; remoteAddress?: string } | undefined;
  return { localAddress: socket?.localAddress, localPort: socket?.localPort, remoteAddress: socket?.remoteAddress };
}
