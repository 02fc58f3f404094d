/**
 * The user agent of a browser app: the authorization server's login page opens in a popup, the person signs in there,
 * and the authorization server redirects the popup to the app's redirect URI, a page of the app's own origin that
 * calls {@link completePopupAuthorization}. That page hands its URL back over a `BroadcastChannel` (same origin
 * only, and unaffected by the opener link being cut by `Cross-Origin-Opener-Policy`); the popup is then closed and
 * the code exchanged by the grant. A popup blocked by the browser, closed by the person, or an aborted signal end the
 * wait with a clear `AuthError`. Web-standard: `window.open` and `BroadcastChannel`.
 */
import { AuthError } from '../errors.js';
import type { AuthorizationUserAgent } from './types.js';

/** The window {@link PopupUserAgentOptions.open} returns (a `Window`, as far as this agent needs it). */
export interface PopupWindow {
  readonly closed: boolean;
  close(): void;
}

/** Options of {@link popupUserAgent}. */
export interface PopupUserAgentOptions {
  /** Opens the popup (default `globalThis.open`, i.e. `window.open`). */
  readonly open?: (url: string, target: string, features: string) => PopupWindow | null;
  /** `window.open` features (default `popup,width=520,height=720`). */
  readonly features?: string;
  /** The channel shared with the redirect page (default `wiremcp-oauth`); pass the same to {@link completePopupAuthorization}. */
  readonly channel?: string;
  /** How often the agent checks whether the person closed the popup, in ms (default 500). */
  readonly closedPollMs?: number;
  /** Gives up after this many ms (default 10 minutes): `interaction_timeout`. */
  readonly timeoutMs?: number;
}

const DEFAULT_CHANNEL = 'wiremcp-oauth';
const MESSAGE = 'wiremcp-oauth-redirect';

/** The message the redirect page posts. */
interface RedirectMessage {
  readonly type: typeof MESSAGE;
  readonly url: string;
}

function isRedirectMessage(data: unknown): data is RedirectMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as RedirectMessage).type === MESSAGE &&
    typeof (data as RedirectMessage).url === 'string'
  );
}

/**
 * Creates an {@link AuthorizationUserAgent} for browser apps; see the module comment. Start authorization from a user
 * gesture (a click), or browsers block the popup.
 */
export function popupUserAgent(options: PopupUserAgentOptions = {}): AuthorizationUserAgent {
  const open = options.open ?? ((url: string, target: string, features: string) => globalThis.open(url, target, features));
  return {
    authorize(url, context) {
      const redirect = new URL(context.redirectUri);
      return new Promise<URL>((resolve, reject) => {
        if (context.signal?.aborted) {
          reject(new AuthError('interaction_cancelled', 'the authorization was cancelled before it started'));
          return;
        }
        const channel = new BroadcastChannel(options.channel ?? DEFAULT_CHANNEL);
        let popup: PopupWindow | null = null;
        const finish = (outcome: { url: URL } | { error: AuthError }): void => {
          clearInterval(poll);
          clearTimeout(timer);
          channel.close();
          context.signal?.removeEventListener('abort', onAbort);
          if (popup && !popup.closed) popup.close();
          if ('url' in outcome) resolve(outcome.url);
          else reject(outcome.error);
        };
        const onAbort = (): void => finish({ error: new AuthError('interaction_cancelled', 'the authorization was cancelled') });
        context.signal?.addEventListener('abort', onAbort);
        channel.onmessage = (event: MessageEvent) => {
          if (!isRedirectMessage(event.data)) return;
          let back: URL;
          try {
            back = new URL(event.data.url);
          } catch {
            return;
          }
          // Another authorization of this app (another tab, an older attempt) may answer on the same channel.
          if (back.origin !== redirect.origin || back.pathname !== redirect.pathname) return;
          if (back.searchParams.get('state') !== context.state) return;
          finish({ url: back });
        };
        const poll = setInterval(() => {
          if (popup?.closed)
            finish({ error: new AuthError('interaction_cancelled', 'the login window was closed before the authorization finished') });
        }, options.closedPollMs ?? 500);
        const timer = setTimeout(
          () => finish({ error: new AuthError('interaction_timeout', 'the login in the popup did not finish in time') }),
          options.timeoutMs ?? 600_000,
        );
        popup = open(url.href, '_blank', options.features ?? 'popup,width=520,height=720');
        if (popup === null) {
          finish({
            error: new AuthError('interaction_cancelled', 'the browser blocked the login popup: start the authorization from a click'),
          });
        }
      });
    },
  };
}

/** Options of {@link completePopupAuthorization}. */
export interface CompletePopupAuthorizationOptions {
  /** The channel of the {@link popupUserAgent} (default `wiremcp-oauth`). */
  readonly channel?: string;
  /** The URL the authorization server redirected to (default `location.href`). */
  readonly url?: string;
}

/**
 * Call it on the redirect page (in the popup): hands the page's URL (code, state, iss) to the waiting
 * {@link popupUserAgent} of the same origin, which closes the popup. Returns false when the URL has neither a `code`
 * nor an `error` (the page was opened some other way) and nothing was sent.
 */
export function completePopupAuthorization(options: CompletePopupAuthorizationOptions = {}): boolean {
  const url = options.url ?? globalThis.location.href;
  const params = new URL(url).searchParams;
  if (!params.has('code') && !params.has('error')) return false;
  const channel = new BroadcastChannel(options.channel ?? DEFAULT_CHANNEL);
  const message: RedirectMessage = { type: MESSAGE, url };
  channel.postMessage(message);
  channel.close();
  return true;
}
