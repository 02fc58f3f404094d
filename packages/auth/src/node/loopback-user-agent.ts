/**
 * The interactive {@link AuthorizationUserAgent} for hosts and CLIs (RFC 8252 §7.3): a listener on 127.0.0.1 receives
 * the authorization server's redirect; the browser is opened at the authorization URL (and the URL is printed, for
 * headless machines). Only a redirect carrying the pending request's `state` completes it; others get a 400 and the
 * wait goes on, until the timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from '../errors.js';
import type { AuthorizationUserAgent, AuthorizationUserAgentContext } from '../client/types.js';
import { openBrowser } from './open-browser.js';

/** Options of {@link startLoopbackUserAgent}. */
export interface LoopbackUserAgentOptions {
  /** Port to listen on (default 0: any free port; register the resulting redirect URI). */
  readonly port?: number;
  /** Callback path (default `/callback`). */
  readonly path?: string;
  /** How long to wait for the user, in milliseconds (default 5 minutes). */
  readonly timeoutMs?: number;
  /** Opens the URL: `true` (default) uses the platform's browser, `false` only prints it, or a function of yours. */
  readonly openBrowser?: boolean | ((url: URL) => void | Promise<void>);
  /** Where the "open this URL" line goes (default: standard error). */
  readonly print?: (line: string) => void;
}

/** A running loopback listener. Close it when done (`await using` works too). */
export interface LoopbackUserAgent extends AuthorizationUserAgent, AsyncDisposable {
  /** The redirect URI to register and use: `http://127.0.0.1:<port><path>`. */
  readonly redirectUri: string;
  /** Stops listening; a pending authorization is cancelled. */
  close(): Promise<void>;
}

const PAGE = (title: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p style="font-family:sans-serif">${title}</p>`;

interface Pending {
  readonly state: string;
  readonly resolve: (url: URL) => void;
  readonly reject: (error: unknown) => void;
}

/** Starts the listener on 127.0.0.1 and returns the user agent. */
export async function startLoopbackUserAgent(options: LoopbackUserAgentOptions = {}): Promise<LoopbackUserAgent> {
  const path = options.path ?? '/callback';
  let pending: Pending | undefined;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: string): void => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method !== 'GET' || url.pathname !== path) return send(404, PAGE('Not found'));
    const current = pending;
    if (!current || url.searchParams.get('state') !== current.state)
      return send(400, PAGE('This authorization response was not expected.'));
    pending = undefined;
    const redirect = new URL(`${redirectUri}${url.search}`);
    send(
      200,
      PAGE(
        url.searchParams.has('error')
          ? 'Authorization was not granted. You can close this window.'
          : 'Authorized. You can close this window.',
      ),
    );
    current.resolve(redirect);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  const print = options.print ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const close = async (): Promise<void> => {
    pending?.reject(new AuthError('interaction_cancelled', 'the authorization listener was closed'));
    pending = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    redirectUri,
    close,
    [Symbol.asyncDispose]: close,
    authorize(url: URL, context: AuthorizationUserAgentContext): Promise<URL> {
      if (pending) return Promise.reject(new AuthError('config_invalid', 'another authorization is already waiting on this listener'));
      return new Promise<URL>((resolve, reject) => {
        const finish = (): void => {
          clearTimeout(timer);
          context.signal?.removeEventListener('abort', onAbort);
        };
        const timer = setTimeout(() => {
          pending = undefined;
          finish();
          reject(new AuthError('interaction_timeout', 'the authorization was not completed in time'));
        }, options.timeoutMs ?? 300_000);
        const onAbort = (): void => {
          pending = undefined;
          finish();
          reject(context.signal?.reason ?? new AuthError('interaction_cancelled', 'the authorization was cancelled'));
        };
        context.signal?.addEventListener('abort', onAbort, { once: true });
        pending = {
          state: context.state,
          resolve: (redirect) => {
            finish();
            resolve(redirect);
          },
          reject: (error) => {
            finish();
            reject(error);
          },
        };
        print(`Open this URL to authorize: ${url.href}`);
        const open = options.openBrowser ?? true;
        if (open !== false) void Promise.resolve(open === true ? openBrowser(url.href) : open(url)).catch(() => undefined);
      });
    },
  };
}
