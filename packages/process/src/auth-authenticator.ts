/**
 * The resource-server hook for the `--auth-*` flags, built with `@wiremcp/auth/server`. Imported on demand by the HTTP
 * mode when `--auth-issuer` is given (it loads `jose` and `oauth4webapi`).
 */
import { createRequestAuthenticator, JwtTokenVerifier, type RequestAuthenticator, type TrustedIssuer } from '@wiremcp/auth/server';
import type { AuthConfig } from './auth-flags.js';

/** The resource-server hook for `config`, guarding the endpoint whose canonical URI is `resource`. */
export function createAuthenticator(config: AuthConfig, resource: string): RequestAuthenticator {
  const issuers: TrustedIssuer[] = config.issuers.map((issuer) => ({
    issuer,
    ...(config.jwksUri !== undefined ? { jwksUri: config.jwksUri } : {}),
  }));
  const supported = [...new Set([...config.scopes, ...Object.values(config.toolScopes).flat()])];
  return createRequestAuthenticator({
    verifier: new JwtTokenVerifier({ issuers }),
    resource,
    authorizationServers: config.issuers,
    ...(supported.length > 0 ? { scopesSupported: supported } : {}),
    scopes: { always: config.scopes, tools: config.toolScopes },
    dpop: { mode: config.dpop },
  });
}
