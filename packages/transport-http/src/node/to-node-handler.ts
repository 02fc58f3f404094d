/**
 * `toNodeHandler`: a fetch handler (`createHttpHandler`'s, or any `(Request) => Promise<Response>`) as a Node
 * request listener — for `http.createServer`, `http2.createSecureServer` (compatibility API), and as an
 * Express/Connect-style `(req, res, next)` middleware.
 */
import type { HttpReply, HttpRequest } from '../server/adapter-contract.js';
import type { HttpConnectionInfo } from '../server/request-checks.js';
import { rpcErrorResponse } from '../server/responses.js';
import { lingerIfUnread } from './linger.js';
import { NodeHttpRequest, nodeWebRequest, requestUrl, type NodeRequest, type NodeResponse } from './node-request.js';
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
        request = new NodeHttpRequest(req, res, trustProxy);
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

type SocketAddresses = { localAddress?: string; localPort?: number; remoteAddress?: string };

/**
 * The connection info of each socket, made on its first request: a kept-alive socket's addresses never change, so its
 * later requests reuse the object (frozen, which tells the handler it may remember the `Host` it allowed on it).
 */
const connections = new WeakMap<object, HttpConnectionInfo>();

function connectionOf(req: NodeRequest): HttpConnectionInfo {
  const socket = req.socket as SocketAddresses | undefined;
  if (socket === undefined || socket === null) return { localAddress: undefined, localPort: undefined, remoteAddress: undefined };
  let info = connections.get(socket);
  if (info === undefined) {
    info = Object.freeze({ localAddress: socket.localAddress, localPort: socket.localPort, remoteAddress: socket.remoteAddress });
    // A socket already closed reports no addresses: nothing is remembered from it.
    if (info.localAddress !== undefined) connections.set(socket, info);
  }
  return info;
}
