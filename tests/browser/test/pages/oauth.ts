/**
 * The OAuth page: a browser app that connects to a protected server. A click on "Connect" (popups need a user
 * gesture) runs discovery from the 401, the authorization code grant with PKCE through {@link popupUserAgent} (the
 * authorization server's login page in a popup, the redirect back to `callback.html`) and the token exchange from
 * the page, then calls a tool with the token (DPoP-bound in the 2026-07-28 run).
 */
import { authorizationCodeGrant, McpOAuthProvider, MemoryAuthStore, popupUserAgent } from '@wiremcp/auth/client';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';

/** What the test sets before clicking. */
export interface OAuthSetup {
  readonly url: string;
  readonly era: 'legacy' | 'modern';
  readonly clientId: string;
  readonly issuer: string;
}

/** What a connection attempt ended with. */
export type OAuthRun =
  | { readonly ok: true; readonly era: string | undefined; readonly text: string; readonly tokenType: string; readonly accessToken: string }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly cause: string | undefined };

let setup: OAuthSetup | undefined;
let outcome: Promise<OAuthRun> | undefined;

async function connect(config: OAuthSetup): Promise<OAuthRun> {
  const store = new MemoryAuthStore();
  const auth = new McpOAuthProvider({
    serverUrl: config.url,
    store,
    dpop: config.era === 'modern' ? 'auto' : 'never',
    grant: authorizationCodeGrant({
      redirectUri: new URL('/callback.html', location.href).href,
      userAgent: popupUserAgent({ closedPollMs: 100 }),
      clientName: 'browser app',
      preRegistered: { clientId: config.clientId, tokenEndpointAuthMethod: 'none', issuer: config.issuer },
    }),
  });
  const client = new McpClient({ name: 'browser-oauth', version: '1.0.0' }, { era: config.era });
  try {
    await client.connect(httpTransportFactory(config.url, { auth, legacySse: false }));
    const result = await client.callTool('test_simple_text', {});
    const tokens = (await store.loadTokens(config.url))!;
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    return { ok: true, era: client.era, text, tokenType: tokens.tokenType, accessToken: tokens.accessToken };
  } catch (error) {
    const failure = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
    const cause = failure.cause?.code === undefined ? undefined : String(failure.cause.code);
    return { ok: false, code: String(failure.code), message: String(failure.message), cause };
  } finally {
    await client.close();
  }
}

const button = document.createElement('button');
button.id = 'connect';
button.textContent = 'Connect';
button.addEventListener('click', () => {
  if (setup) outcome = connect(setup);
});
document.body.append(button);

Object.assign(globalThis, {
  wiremcpOAuthPage: {
    configure: (config: OAuthSetup) => void (setup = config),
    outcome: (): Promise<OAuthRun> => outcome ?? Promise.reject(new Error('Connect was not clicked')),
  },
});
