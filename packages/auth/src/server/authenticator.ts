/**
 * The server-side hook for the HTTP transport: a {@link RequestAuthenticator} turns each incoming request into either
 * the authenticated {@link Principal} or the HTTP response to send instead (401 with a challenge naming the protected
 * resource metadata and the needed scopes, 403 `insufficient_scope`, 400 `invalid_request`, 503 when the verifier
 * could not judge). Every request is authenticated on its own; the token itself never leaves this module.
 */
import { targetOfName, type RequestTarget } from '@wiremcp/protocol';
import { DPOP_ALGORITHMS } from '../dpop/dpop-key.js';
import { AuthError, isAuthError } from '../errors.js';
import { canonicalResourceUri } from '../resource-uri.js';
import { refusal } from './challenge.js';
import { DpopNonceSource } from './dpop-nonce.js';
import { verifyDpopProof } from './dpop-verifier.js';
import type { Principal } from './principal.js';
import { createProtectedResourceMetadataHandler, resourceMetadataUrl } from './protected-resource-metadata.js';
import { MemoryReplayCache, type ReplayCache } from './replay-cache.js';
import { ScopePolicy, type ScopePolicyConfig } from './scope-policy.js';
import type { TokenVerifier } from './token-verifier.js';

/** What the transport tells the authenticator about a request. */
export interface AuthenticateContext {
  /** The public URL of the MCP endpoint the client addressed (the canonical resource, and the DPoP `htu`). */
  readonly resource: URL;
  /**
   * The JSON-RPC method of the operation to authorize, read from the validated body. With it, the operation's scopes
   * are checked (`authorize`, and `authenticate` after the token); without it, only the scopes every request needs.
   */
  readonly method?: string;
  /** The tool or prompt name, or the resource URI, that `method` names (its named field in the body). */
  readonly name?: string;
  /** Everything the operation acts on (`requestTargets` of `@wiremcp/protocol`); checked with `name`, if both are given. */
  readonly targets?: readonly RequestTarget[];
  /**
   * What the request's headers announce before its body is read (`Mcp-Method`, and `Mcp-Name` decoded the way the
   * body check decodes it): it only chooses which scopes the challenge of a refusal names, and never decides
   * anything. Ignored when `method` is given.
   */
  readonly announced?: { readonly method: string; readonly targets?: readonly RequestTarget[] };
}

/** The outcome of {@link RequestAuthenticator.authenticate}. */
export type AuthenticateResult =
  | {
      /** The caller. */
      readonly principal: Principal;
      /** Headers to add to the response that will be sent (e.g. a fresh `DPoP-Nonce`). */
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      /** The complete refusal to send instead of handling the request. */
      readonly response: Response;
    };

/** The resource-server hook the HTTP transport calls. */
export interface RequestAuthenticator {
  /**
   * Authenticates one request: its token, and the scopes every request needs; when `context.method` is given, the
   * operation's scopes too.
   */
  authenticate(request: Request, context: AuthenticateContext): Promise<AuthenticateResult>;
  /**
   * Checks an already authenticated principal against the scopes of one operation (for bodies that carry several
   * messages, or when the method is only known after parsing). Returns the 403 to send, or `undefined` when allowed.
   */
  authorize(principal: Principal, context: AuthenticateContext): Response | undefined;
  /** Answers the protected resource metadata well-known URLs (or `undefined` for other paths). */
  protectedResourceMetadata(request: Request): Response | undefined;
}

/** DPoP settings of the authenticator. */
export interface AuthenticatorDpopOptions {
  /** `allowed` (default): Bearer and DPoP-bound tokens; `required`: only DPoP; `disabled`: only Bearer. */
  readonly mode?: 'allowed' | 'required' | 'disabled';
  readonly algorithms?: readonly string[];
  readonly maxAgeSeconds?: number;
  readonly clockToleranceSeconds?: number;
  /** Require server nonces in proofs (RFC 9449 §9). */
  readonly requireNonce?: boolean;
  /** Nonce source (default: a per-instance one). */
  readonly nonces?: DpopNonceSource;
  /** Proof replay cache (default: in-memory, 100 000 entries). */
  readonly replayCache?: ReplayCache;
}

/** Options of {@link createRequestAuthenticator}. */
export interface RequestAuthenticatorOptions {
  /** How tokens are validated (JWT/JWKS, introspection, or your own). */
  readonly verifier: TokenVerifier;
  /** The canonical resource URI (token audience). Default: the endpoint URL of each request. */
  readonly resource?: string;
  /** Authorization servers for the protected resource metadata document. */
  readonly authorizationServers?: readonly string[];
  /** `scopes_supported` of the metadata, and the scopes named in a 401 when the operation is unknown. */
  readonly scopesSupported?: readonly string[];
  /** Human-readable resource name for the metadata. */
  readonly resourceName?: string;
  /** Scopes required per operation. */
  readonly scopes?: ScopePolicy | ScopePolicyConfig;
  readonly dpop?: AuthenticatorDpopOptions;
  /** Longest accepted `Authorization` header, in characters (default 16 KiB). */
  readonly maxAuthorizationLength?: number;
  /** Clock in milliseconds since the epoch. */
  readonly now?: () => number;
}

const CREDENTIALS = /^([A-Za-z][A-Za-z0-9-]*) +([A-Za-z0-9\-._~+/]+=*)$/;

/** Creates the resource-server hook. */
export function createRequestAuthenticator(options: RequestAuthenticatorOptions): RequestAuthenticator {
  const policy = options.scopes instanceof ScopePolicy ? options.scopes : new ScopePolicy(options.scopes);
  const mode = options.dpop?.mode ?? 'allowed';
  const schemes: ('Bearer' | 'DPoP')[] = mode === 'required' ? ['DPoP'] : mode === 'disabled' ? ['Bearer'] : ['Bearer', 'DPoP'];
  const dpopAlgorithms = options.dpop?.algorithms ?? DPOP_ALGORITHMS;
  const requireNonce = options.dpop?.requireNonce ?? false;
  const nonces = options.dpop?.nonces ?? (requireNonce ? new DpopNonceSource({ now: options.now }) : undefined);
  const replayCache = options.dpop?.replayCache ?? new MemoryReplayCache({ now: options.now });
  const maxLength = options.maxAuthorizationLength ?? 16 * 1024;
  const now = options.now ?? Date.now;
  if (options.authorizationServers && !options.resource) {
    throw new AuthError('config_invalid', 'serving protected resource metadata needs the resource URI');
  }
  const metadata =
    options.authorizationServers && options.resource
      ? createProtectedResourceMetadataHandler({
          resource: options.resource,
          authorizationServers: options.authorizationServers,
          scopesSupported: options.scopesSupported,
          resourceName: options.resourceName,
          dpopSigningAlgValuesSupported: mode === 'disabled' ? undefined : dpopAlgorithms,
          dpopBoundAccessTokensRequired: mode === 'required' ? true : undefined,
        })
      : undefined;

  const resourceOf = (context: AuthenticateContext): string => options.resource ?? canonicalResourceUri(context.resource);

  /** What an operation acts on: its `targets`, and the target its `name` stands for. */
  const targetsOf = (method: string | undefined, context: AuthenticateContext): readonly RequestTarget[] | undefined => {
    const named = method === undefined || context.name === undefined ? undefined : targetOfName(method, context.name);
    if (named === undefined) return context.targets;
    return context.targets === undefined ? [named] : [named, ...context.targets];
  };

  const refuse = (
    context: AuthenticateContext,
    status: 400 | 401 | 403 | 503,
    extra: { error?: string; description?: string; errorScheme?: 'Bearer' | 'DPoP'; headers?: Record<string, string> } = {},
  ): { response: Response } => {
    // The operation when it is known; else what the headers announce, to name the scopes worth asking for.
    const required =
      context.method !== undefined
        ? policy.requiredFor(context.method, targetsOf(context.method, context))
        : policy.requiredFor(context.announced?.method, context.announced?.targets);
    const scope = required.length > 0 ? required : options.scopesSupported;
    return {
      response: refusal({ status, schemes, dpopAlgorithms, resourceMetadata: resourceMetadataUrl(resourceOf(context)), scope, ...extra }),
    };
  };

  const authorize = (principal: Principal, context: AuthenticateContext): Response | undefined => {
    if (policy.missingFor(principal.scopes, context.method, targetsOf(context.method, context)).length === 0) return undefined;
    const scheme = principal.dpopThumbprint ? 'DPoP' : 'Bearer';
    return refuse(context, 403, {
      error: 'insufficient_scope',
      description: 'the access token lacks a required scope',
      errorScheme: scheme,
    }).response;
  };

  return {
    protectedResourceMetadata: (request) => metadata?.(request),
    authorize,
    async authenticate(request, context) {
      const url = new URL(request.url);
      if (url.searchParams.has('access_token')) {
        return refuse(context, 400, { error: 'invalid_request', description: 'access tokens are not accepted in the query string' });
      }
      const header = request.headers.get('authorization');
      if (header === null || header.trim() === '') return refuse(context, 401);
      if (header.length > maxLength)
        return refuse(context, 400, { error: 'invalid_request', description: 'the Authorization header is too large' });
      const match = CREDENTIALS.exec(header.trim());
      if (!match) return refuse(context, 400, { error: 'invalid_request', description: 'the Authorization header is malformed' });
      const scheme = match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : match[1]!.toLowerCase() === 'bearer' ? 'Bearer' : undefined;
      if (scheme === undefined) return refuse(context, 401);
      const token = match[2]!;
      if (!schemes.includes(scheme)) {
        return refuse(context, 401, {
          error: 'invalid_token',
          description: `${scheme} tokens are not accepted here`,
          errorScheme: schemes[0],
        });
      }
      const at = now();
      let principal: Principal;
      try {
        principal = await options.verifier.verify(token, { resource: resourceOf(context), now: at });
      } catch (error) {
        if (isAuthError(error) && error.code === 'invalid_token') {
          return refuse(context, 401, { error: 'invalid_token', description: error.message, errorScheme: scheme });
        }
        return refuse(context, 503, { error: 'temporarily_unavailable', description: 'the access token could not be verified right now' });
      }
      if (scheme === 'Bearer' && principal.dpopThumbprint) {
        return refuse(context, 401, {
          error: 'invalid_token',
          description: 'a DPoP-bound token must be sent with the DPoP scheme',
          errorScheme: 'Bearer',
        });
      }
      if (scheme === 'DPoP') {
        if (!principal.dpopThumbprint)
          return refuse(context, 401, { error: 'invalid_token', description: 'the access token is not DPoP-bound', errorScheme: 'DPoP' });
        try {
          const { thumbprint } = await verifyDpopProof(
            {
              proof: request.headers.get('dpop'),
              method: request.method,
              urls: [context.resource.href, request.url],
              accessToken: token,
              now: at,
            },
            { ...options.dpop, algorithms: dpopAlgorithms, nonces, requireNonce, replayCache },
          );
          if (thumbprint !== principal.dpopThumbprint) {
            return refuse(context, 401, {
              error: 'invalid_dpop_proof',
              description: 'the DPoP proof key is not the key the token is bound to',
              errorScheme: 'DPoP',
            });
          }
        } catch (error) {
          if (!(error instanceof AuthError) || error.code !== 'invalid_dpop_proof') throw error;
          if (error.oauthError === 'use_dpop_nonce' && nonces) {
            return refuse(context, 401, {
              error: 'use_dpop_nonce',
              description: error.message,
              errorScheme: 'DPoP',
              headers: { 'dpop-nonce': await nonces.current() },
            });
          }
          return refuse(context, 401, { error: 'invalid_dpop_proof', description: error.message, errorScheme: 'DPoP' });
        }
      }
      const forbidden = authorize(principal, context);
      if (forbidden) return { response: forbidden };
      return requireNonce && nonces ? { principal, headers: { 'dpop-nonce': await nonces.current() } } : { principal };
    },
  };
}
