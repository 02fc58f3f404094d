/**
 * The HTTP answers of a resource server that refuses a request (RFC 6750 §3, RFC 9449 §7.1, RFC 9728 §5.1): 401 with
 * `WWW-Authenticate` naming the metadata URL and the needed scopes, 403 `insufficient_scope`, 400 `invalid_request`,
 * 503 when the verifier could not judge. Bodies are small OAuth error objects; descriptions never echo input.
 */
import { formatChallenge } from '../www-authenticate.js';

/** What a refusal says. */
export interface RefusalInput {
  readonly status: 400 | 401 | 403 | 503;
  /** OAuth error code (`invalid_token`, `insufficient_scope`, `invalid_request`, `invalid_dpop_proof`, `use_dpop_nonce`); none for a bare 401. */
  readonly error?: string;
  /** A fixed, human-readable description. */
  readonly description?: string;
  /** `resource_metadata` URL for the challenge. */
  readonly resourceMetadata: string;
  /** Scopes to name in the challenge. */
  readonly scope?: readonly string[];
  /** Which schemes to challenge with: Bearer, DPoP, or both. */
  readonly schemes: readonly ('Bearer' | 'DPoP')[];
  /** `algs` for the DPoP challenge. */
  readonly dpopAlgorithms?: readonly string[];
  /** The scheme the error applies to (the one the client used); the others get a bare challenge. */
  readonly errorScheme?: 'Bearer' | 'DPoP';
  /** Extra response headers (e.g. `DPoP-Nonce`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Builds the refusal response. */
export function refusal(input: RefusalInput): Response {
  const headers = new Headers(input.headers);
  headers.set('content-type', 'application/json');
  headers.set('cache-control', 'no-store');
  if (input.status === 401 || input.status === 403) {
    const scope = input.scope && input.scope.length > 0 ? input.scope.join(' ') : undefined;
    const errorScheme = input.errorScheme ?? input.schemes[0];
    const challenges = input.schemes.map((scheme) => {
      const withError = scheme === errorScheme && input.error !== undefined;
      return formatChallenge(scheme, {
        error: withError ? input.error : undefined,
        error_description: withError ? input.description : undefined,
        algs: scheme === 'DPoP' && input.dpopAlgorithms ? input.dpopAlgorithms.join(' ') : undefined,
        resource_metadata: input.resourceMetadata,
        scope,
      });
    });
    headers.set('www-authenticate', challenges.join(', '));
  }
  if (input.status === 503) headers.set('retry-after', '5');
  const body = input.error
    ? { error: input.error, ...(input.description ? { error_description: input.description } : {}) }
    : { error: 'unauthorized' };
  return new Response(JSON.stringify(body), { status: input.status, headers });
}
