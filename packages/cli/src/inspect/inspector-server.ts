/**
 * The inspector's local web server. It serves the page and the page's API on 127.0.0.1 only, and trusts a request
 * only when:
 *
 * - its `Host` is this server's own loopback address and port (a DNS-rebinding page reaches the port under a
 *   foreign name and is refused);
 * - it carries the session token (random, 256 bits, in the URL printed on the terminal; the page sends it back in
 *   a header), compared in constant time — the page itself is not served without it either;
 * - its `Origin`, when the browser sends one, is this server's own (a foreign page is refused even with the token;
 *   the API needs a JSON body and a custom header, so a cross-origin browser request needs a preflight, which gets
 *   no CORS answer).
 *
 * The API runs operations on the one target fixed by the command line (`InspectorSession.run`): the page cannot
 * name another server, a URL or a command. Bodies are bounded; answers never echo the request.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InspectorError, type InspectorEvent, type InspectorSession } from './inspector-session.js';

/** The largest API request body accepted. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/** The header the page sends its token in. */
export const TOKEN_HEADER = 'x-wiremcp-inspector-token';

/** The files of the page, next to this module once built (`dist/inspect/page/`). */
const PAGE_FILES: Readonly<Record<string, string>> = {
  '/app.js': 'text/javascript; charset=utf-8',
  '/app.css': 'text/css; charset=utf-8',
};

/** The page's headers; MCP Apps views may be framed from `viewOrigin` only (their own origin, `view-server.ts`). */
const securityHeaders = (viewOrigin: string | undefined): Record<string, string> => ({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    `frame-src 'self' blob:${viewOrigin ? ` ${viewOrigin}` : ''}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
});

/** A running inspector server. */
export interface InspectorServer {
  /** The page's URL, with the token. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Options of {@link startInspectorServer}. */
export interface InspectorServerOptions {
  /** The port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
  /** The token (default: 32 random bytes, base64url); tests give none. */
  readonly token?: string;
  /** Where the built page files are (default: `./page/` next to this module). */
  readonly pageDir?: URL;
  /** The origin MCP Apps views are served from (`view-server.ts`): the one origin the page may frame besides its own. */
  readonly viewOrigin?: string;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_API_BODY_BYTES) throw new InspectorError('request body too large', 413);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_API_BODY_BYTES) throw new InspectorError('request body too large', 413);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new InspectorError('the body is not JSON', 400);
  }
}

/** An error for the page: bounded, and with secrets redacted (a server's error may quote its stderr or command line). */
function errorMessage(error: unknown, redact: (text: string) => string): string {
  const message = redact(error instanceof Error ? error.message : String(error));
  return message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
}

function pageHtml(): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>wiremcp inspect</title><link rel="stylesheet" href="/app.css"></head>' +
    '<body><noscript>The inspector needs JavaScript.</noscript><script type="module" src="/app.js"></script></body></html>'
  );
}

/** Starts the server for `session`; see the module comment for what it accepts. */
export async function startInspectorServer(session: InspectorSession, options: InspectorServerOptions = {}): Promise<InspectorServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  const pageDir = options.pageDir ?? new URL('./page/', import.meta.url);
  const streams = new Set<ServerResponse>();
  const pageHeaders = securityHeaders(options.viewOrigin);
  const send = (res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8'): void => {
    res.writeHead(status, { ...pageHeaders, 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const refuse = (res: ServerResponse, status: number, message: string): void => send(res, status, JSON.stringify({ error: message }));
  let origins: ReadonlySet<string> = new Set();
  let hosts: ReadonlySet<string> = new Set();

  const tokenMatches = (given: string | null | undefined): boolean => {
    if (typeof given !== 'string') return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hosts.has(req.headers.host ?? '')) return refuse(res, 421, 'unexpected Host');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(res, 403, 'foreign Origin');
    const url = new URL(req.url ?? '/', 'http://inspector');
    if (req.method === 'GET' && url.pathname === '/') {
      if (!tokenMatches(url.searchParams.get('token'))) return refuse(res, 403, 'missing or wrong token');
      return send(res, 200, pageHtml(), 'text/html; charset=utf-8');
    }
    if (req.method === 'GET' && Object.hasOwn(PAGE_FILES, url.pathname)) {
      const body = await readFile(new URL(`.${url.pathname}`, pageDir), 'utf8');
      return send(res, 200, body, PAGE_FILES[url.pathname]);
    }
    if (!url.pathname.startsWith('/api/')) return refuse(res, 404, 'not found');
    if (!tokenMatches(req.headers[TOKEN_HEADER] as string | undefined)) return refuse(res, 403, 'missing or wrong token');
    if (req.method === 'GET' && url.pathname === '/api/events') return openEvents(res);
    if (req.method !== 'POST' || url.pathname !== '/api/rpc') return refuse(res, 404, 'not found');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'the body must be application/json');
    const body = await readBody(req);
    const { op, params } = (typeof body === 'object' && body !== null ? body : {}) as { op?: unknown; params?: unknown };
    try {
      send(res, 200, JSON.stringify({ result: await session.run(op, params) }));
    } catch (error) {
      if (error instanceof InspectorError) throw error;
      // The server's own answer (a JSON-RPC error, a timeout): the page shows it.
      const code = (error as { code?: unknown }).code;
      send(res, 200, JSON.stringify({ error: { message: errorMessage(error, session.redact), ...(code === undefined ? {} : { code }) } }));
    }
  };

  /** The page's event stream: NDJSON, the waiting inputs first, then every event as it happens. */
  const openEvents = (res: ServerResponse): void => {
    res.writeHead(200, { ...pageHeaders, 'content-type': 'application/x-ndjson; charset=utf-8' });
    // Events still come while the inspector stops (the target's connection closing is logged after the streams were
    // ended): a stream that ended takes no more, and a failed write only ends it.
    const write = (event: InspectorEvent): void => {
      if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
    };
    res.on('error', () => res.destroy());
    for (const event of session.pendingInputs()) write(event);
    const stop = session.subscribe(write);
    streams.add(res);
    res.on('close', () => {
      stop();
      streams.delete(res);
    });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof InspectorError) return refuse(res, error.status, session.redact(error.message));
      refuse(res, 500, errorMessage(error, session.redact));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
