/**
 * A real OpenID provider for the end-to-end tests: `oidc-provider` (OpenID-certified) in process on 127.0.0.1, with
 * dynamic registration, PKCE, refresh-token rotation, client credentials, DPoP and resource indicators (JWT access
 * tokens whose `aud` is the requested resource and whose scopes are those granted for it). By default the login and
 * consent pages are replaced by a headless interaction endpoint: it logs in the current test user and grants what was
 * asked, so the authorization code flow runs without a browser. With `loginPage: true` the login is a real HTML form
 * (user name and password, see {@link LOGIN_PASSWORD}) for a browser to fill in; consent is then granted as asked.
 * Its own diagnostics are collected, not printed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { ClientMetadata, Configuration, default as ProviderClass, KoaContextWithOIDC } from 'oidc-provider';

// oidc-provider prints warnings meant for deployments (the Node version it prefers, its development-only in-memory
// storage) through console.warn, at import and on first use. Tests want exactly that setup, so those lines are
// dropped in this test process; every other warning still shows. The module is imported after the filter is in.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING')) return;
  warn(...args);
};
const { default: Provider } = await import('oidc-provider');
type Provider = ProviderClass;

/** The scopes MCP resources can be granted. */
export const RESOURCE_SCOPES = 'mcp:read mcp:write mcp:admin';

/** A running provider. */
export interface OpenIdProvider {
  /** `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** The account the next interactive login signs in as (default `alice`). */
  user: string;
  /** Errors the provider reported (kept instead of written to stderr). */
  readonly errors: string[];
  /** The oidc-provider instance, for listening to its events (`grant.success`, `registration_create.success`…). */
  readonly provider: Provider;
  /** An access token from the client credentials grant of the pre-registered `service` client. */
  serviceToken(resource: string, scope?: string): Promise<string>;
  /** Revokes the grant a refresh token belongs to, as an administrator would: its tokens stop working. */
  revokeGrant(refreshToken: string): Promise<void>;
  close(): Promise<void>;
}

/** The password of every account on the login page (`loginPage: true`). */
export const LOGIN_PASSWORD = 'correct horse battery staple';

/** Options of {@link startOpenIdProvider}. */
export interface OpenIdProviderOptions {
  /** Serve a real login form instead of logging in {@link OpenIdProvider.user} headlessly. */
  readonly loginPage?: boolean;
  /** More pre-registered clients (e.g. a browser app: public, `token_endpoint_auth_method: 'none'`). */
  readonly clients?: readonly ClientMetadata[];
}

/** The pre-registered confidential client, for machine tokens. */
export const SERVICE_CLIENT = { id: 'service', secret: 'service-secret-0123456789' } as const;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginForm(uid: string, problem?: string): string {
  return (
    `<!doctype html><title>Sign in</title><h1>Sign in</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}` +
    `<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">` +
    '<label>User <input name="login" autocomplete="username"></label>' +
    '<label>Password <input name="password" type="password" autocomplete="current-password"></label>' +
    '<button type="submit">Sign in</button></form>'
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 4096) throw new Error('login form too large');
  }
  return new URLSearchParams(body);
}

/** The login page: GET shows the form, POST checks the password and finishes the login prompt. */
async function loginPage(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== 'login') return false;
  if (req.method === 'POST' && req.url?.endsWith('/login')) {
    const form = await readForm(req);
    const login = form.get('login') ?? '';
    if (/^[a-z]{1,32}$/.test(login) && form.get('password') === LOGIN_PASSWORD) {
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      return true;
    }
    res.statusCode = 401;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(loginForm(details.uid, 'Wrong user name or password.'));
    return true;
  }
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(loginForm(details.uid));
  return true;
}

async function finishInteraction(
  provider: Provider,
  user: string,
  req: IncomingMessage,
  res: ServerResponse,
  pages: boolean,
): Promise<void> {
  if (pages && (await loginPage(provider, req, res))) return;
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session?.accountId ?? user, clientId: details.params.client_id as string });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** Starts a provider on a free loopback port. */
export async function startOpenIdProvider(options: OpenIdProviderOptions = {}): Promise<OpenIdProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = await generateKeyPair('ES256', { extractable: true });
  // ID tokens default to RS256, so the provider needs an RSA key too; access tokens are ES256.
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const errors: string[] = [];
  const configuration: Configuration = {
    clients: [
      {
        client_id: SERVICE_CLIENT.id,
        client_secret: SERVICE_CLIENT.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      ...(options.clients ?? []),
    ],
    jwks: {
      keys: [
        { ...(await exportJWK(rsa.privateKey)), alg: 'RS256', use: 'sig', kid: 'e2e-rs' },
        { ...(await exportJWK(key.privateKey)), alg: 'ES256', use: 'sig', kid: 'e2e-es' },
      ],
    },
    cookies: { keys: ['wiremcp-e2e-cookie-key'] },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => Promise.resolve({ accountId: id, claims: () => ({ sub: id }) }),
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    ttl: { AccessToken: 300, ClientCredentials: 300, Grant: 3600, Interaction: 600, Session: 3600, RefreshToken: 86400 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) =>
          Promise.resolve({
            scope: RESOURCE_SCOPES,
            audience: resource,
            accessTokenFormat: 'jwt' as const,
            accessTokenTTL: 300,
            jwt: { sign: { alg: 'ES256' } },
          }),
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  // Collected rather than printed: a test asserts on them when it matters, and the run output stays readable.
  const record = (event: string) => (_ctx: unknown, error: Error) => void errors.push(`${event}: ${error.message}`);
  provider.on('server_error', record('server_error'));
  provider.on('grant.error', record('grant.error'));
  provider.on('authorization.error', record('authorization.error'));
  provider.on('registration_create.error', record('registration_create.error'));
  const callback = provider.callback();
  const state = {
    issuer,
    user: 'alice',
    errors,
    provider,
    async serviceToken(resource: string, scope = 'mcp:read'): Promise<string> {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`)}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`no service token: ${body.error}`);
      return body.access_token;
    },
    async revokeGrant(refreshToken: string): Promise<void> {
      const token = await provider.RefreshToken.find(refreshToken);
      if (!token?.grantId) throw new Error('no such refresh token at the provider');
      await Promise.all([provider.RefreshToken, provider.AccessToken].map((model) => model.revokeByGrantId(token.grantId!)));
      await (await provider.Grant.find(token.grantId))?.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      finishInteraction(provider, state.user, req, res, options.loginPage === true).catch((error: unknown) => {
        errors.push(`interaction: ${String(error)}`);
        res.statusCode = 500;
        res.end();
      });
      return;
    }
    void callback(req, res);
  };
  return state;
}
