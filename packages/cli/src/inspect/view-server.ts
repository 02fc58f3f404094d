/**
 * The origin MCP Apps views run from: a second loopback listener of the inspector, on a port of its own, so that a
 * view is never same-origin with the page (whose API and token it must not reach). Each view document is served
 * once registered, at an unguessable path, with the Content Security Policy the view declared (`buildCsp`) as a
 * response header — a `srcdoc` frame would inherit the page's policy instead — plus `sandbox allow-scripts` (the
 * document is sandboxed even if opened outside the inspector's frame) and `frame-ancestors` naming the page's
 * origin only. Nothing else is served here: no API, no cookies, no token.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Views kept at once (the oldest is forgotten first; the page asks again when it shows a view again). */
export const MAX_VIEWS = 32;

/** A running view server. */
export interface ViewServer {
  /** `http://127.0.0.1:<port>`: the page's `frame-src`. */
  readonly origin: string;
  /** Lets the page at these origins frame the views (until called, no view is served). */
  embedBy(origins: readonly string[]): void;
  /** Keeps `html` to be served with `csp`; returns its URL. */
  register(html: string, csp: string): string;
  close(): Promise<void>;
}

interface View {
  readonly html: string;
  readonly csp: string;
}

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  // No other page may read the view as a subresource (its HTML came from the server the inspector is connected to).
  'cross-origin-resource-policy': 'same-origin',
};

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(message) });
  res.end(message);
}

/** Starts the view server on 127.0.0.1 (any free port). */
export async function startViewServer(): Promise<ViewServer> {
  const views = new Map<string, View>();
  let hosts: ReadonlySet<string> = new Set();
  let ancestors: string | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hosts.has(req.headers.host ?? '')) return refuse(res, 421, 'unexpected Host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const match = /^\/view\/([A-Za-z0-9_-]{22})$/.exec(req.url ?? '');
    const view = match ? views.get(match[1]!) : undefined;
    if (view === undefined || ancestors === undefined) return refuse(res, 404, 'no such view');
    const body = Buffer.from(view.html, 'utf8');
    res.writeHead(200, {
      ...BASE_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.byteLength,
      'content-security-policy': `${view.csp}; frame-ancestors ${ancestors}; sandbox allow-scripts`,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    embedBy(origins) {
      for (const each of origins)
        if (!/^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}$/.test(each)) throw new TypeError(`not a loopback origin: ${each}`);
      ancestors = origins.join(' ');
    },
    register(html, csp) {
      // The CSP comes from buildCsp (origins checked); this keeps a header from ever being split.
      if (/[\r\n]/.test(csp)) throw new TypeError('a CSP must be one line');
      const id = randomBytes(16).toString('base64url');
      views.set(id, { html, csp });
      while (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
      return `${origin}/view/${id}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
