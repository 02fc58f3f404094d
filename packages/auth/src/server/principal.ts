/**
 * The authenticated caller of a protected request, as handlers see it. It never contains the access token itself:
 * an MCP server must not pass the token it received on to anything else (no token passthrough).
 */

/** Who made a request, and what the token allows. */
export interface Principal {
  /** The token's subject (`sub`): the user, or the client for client-credentials tokens. */
  readonly subject: string | undefined;
  /** The OAuth client the token was issued to (`client_id`, else `azp`). */
  readonly clientId: string | undefined;
  /** The issuer that minted the token (`iss`). */
  readonly issuer: string | undefined;
  /** The audiences the token was issued for. */
  readonly audience: readonly string[];
  /** Granted scopes. */
  readonly scopes: readonly string[];
  /** Expiry in seconds since the epoch, when known. */
  readonly expiresAt: number | undefined;
  /** The RFC 7638 thumbprint of the DPoP key the token is bound to (`cnf.jkt`), when it is DPoP-bound. */
  readonly dpopThumbprint: string | undefined;
  /** All claims of the token (JWT payload or introspection response), for application-specific checks. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * A stable identity key for binding state (such as a legacy `Mcp-Session-Id`) to a principal: issuer, subject and
 * client. Two requests carry the same principal exactly when their keys are equal.
 */
export function principalKey(principal: Principal): string {
  return JSON.stringify([principal.issuer ?? null, principal.subject ?? null, principal.clientId ?? null]);
}

/** Reads space-separated `scope` (RFC 8693 / RFC 9068) or `scp` (string or array) into a scope list. */
export function scopesFromClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter((s) => s.length > 0);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string' && s.length > 0);
  return [];
}

/** Builds a {@link Principal} from verified token claims. */
export function principalFromClaims(claims: Readonly<Record<string, unknown>>): Principal {
  const aud = claims.aud;
  const cnf = claims.cnf as { jkt?: unknown } | undefined;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    subject: text(claims.sub),
    clientId: text(claims.client_id) ?? text(claims.azp),
    issuer: text(claims.iss),
    audience: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [],
    scopes: scopesFromClaims(claims),
    expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
    dpopThumbprint: typeof cnf === 'object' && cnf !== null ? text(cnf.jkt) : undefined,
    claims,
  };
}
