/**
 * `toNodeHandler`: a fetch handler (`createHttpHandler`'s, or any `(Request) => Promise<Response>`) as a Node
 * request listener — for `http.createServer`, `http2.createSecureServer` (compatibility API), and as an
 * Express/Connect-style `(req, res, next)` middleware.
 */
import type { HttpConnectionInfo } from '../server/request-checks.js';
import { isNotHandled, rpcErrorResponse } from '../server/responses.js';
import { lingerIfUnread } from './linger.js';
import { nodeRequestView, type NodeRequest, type NodeResponse } from './node-request.js';
import { writeResponse } from './write-response.js';

/** A fetch handler, optionally told about the connection (as `createHttpHandler`'s handler is). */
export type FetchHandler = (request: Request, connection?: HttpConnectionInfo) => Promise<Response>;

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
 * Adapts `handler` to Node: each request becomes a `Request` view (no copy; the body is read from the Node stream
 * under the handler's limits), the `Response` is written back without buffering SSE, and a client that disconnects
 * aborts the request's `signal` and cancels the response body. Called with `next` (as middleware), requests for
 * paths the handler does not serve are passed on.
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const trustProxy = options.trustProxy ?? false;
  const onError = options.onError ?? ((error: unknown) => console.error('[@wiremcp/transport-http/node]', error));
  return (req, res, next) => {
    let request: Request;
    try {
      request = nodeRequestView(req, res, requestUrl(req, trustProxy));
    } catch {
      void writeResponse(rpcErrorResponse(400, null, -32600, 'Bad request: the request URL is malformed'), res);
      return;
    }
    const socket = req.socket as { localAddress?: string; localPort?: number } | undefined;
    const connection: HttpConnectionInfo = { localAddress: socket?.localAddress, localPort: socket?.localPort };
    handler(request, connection).then(
      (response) => {
        if (next !== undefined && isNotHandled(response)) {
          next();
          return undefined;
        }
        lingerIfUnread(req, response);
        return writeResponse(response, res);
      },
      (error: unknown) => {
        onError(error);
        if (!res.headersSent) return writeResponse(rpcErrorResponse(500, null, -32603, 'Internal error'), res);
        res.end();
        return undefined;
      },
    );
  };
}
