/**
 * Test helper: a real OpenID provider (`oidc-provider`, OpenID-certified) in process on 127.0.0.1 with dynamic
 * registration, client credentials, introspection, DPoP and resource indicators (JWT access tokens whose `aud` is the
 * resource), and a headless interaction endpoint that logs the test user in and grants what was asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface TestProvider {
  readonly issuer: string;
  readonly provider: Provider;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** Resource indicators whose tokens are opaque (introspected) rather than JWTs. */
  opaqueResources?: (resource: string) => boolean;
  accessTokenTtl?: number;
  requireDpopNonce?: boolean;
  clients?: Configuration['clients'];
}

async function signingKeys(): Promise<JWK[]> {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  return [
    { ...(await exportJWK(rsa.privateKey)), alg: 'RS256', use: 'sig', kid: 'rs' },
    { ...(await exportJWK(ec.privateKey)), alg: 'ES256', use: 'sig', kid: 'es' },
  ];
}

async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'user-1' } }, { mergeWithLastSubmission: false });
    return;
  }
  const accountId = details.session?.accountId ?? 'user-1';
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId, clientId: details.params.client_id as string });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** Starts a provider; its issuer is `http://127.0.0.1:<port>`. */
export async function startTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: await signingKeys() },
    cookies: { keys: ['wiremcp-test-cookie-key'] },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => Promise.resolve({ accountId: id, claims: () => ({ sub: id }) }),
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    ttl: {
      AccessToken: options.accessTokenTtl ?? 300,
      ClientCredentials: options.accessTokenTtl ?? 300,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      RefreshToken: 86400,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      dPoP: { enabled: true, ...(options.requireDpopNonce ? { nonceSecret: Buffer.alloc(32, 7), requireNonce: () => true } : {}) },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) =>
          Promise.resolve(
            options.opaqueResources?.(resource)
              ? {
                  scope: 'mcp:read mcp:write',
                  audience: resource,
                  accessTokenFormat: 'opaque' as const,
                  accessTokenTTL: options.accessTokenTtl ?? 300,
                }
              : {
                  scope: 'mcp:read mcp:write',
                  audience: resource,
                  accessTokenFormat: 'jwt' as const,
                  accessTokenTTL: options.accessTokenTtl ?? 300,
                  jwt: { sign: { alg: 'ES256' } },
                },
          ),
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx: unknown, error: Error) => process.stderr.write(`oidc-provider server_error: ${error.message}\n`));
  const callback = provider.callback();
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  };
  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
