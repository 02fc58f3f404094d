/**
 * OAuth protection of a server served over HTTP (`--http`), from the command line: `--auth-issuer` turns it on. Every
 * request then needs an access token from a trusted issuer whose audience is the server's canonical resource URI
 * (`--auth-audience`), verified against the issuer's JWKS (discovered from its metadata, or `--auth-jwks`); the
 * server publishes its RFC 9728 protected resource metadata and answers 401/403 with the challenges MCP clients
 * follow. Everything token-related is `@wiremcp/auth/server`'s; this module only maps flags onto it.
 */
// Types only: `@wiremcp/auth/server` (and the libraries under it) is loaded by `auth-authenticator.ts`, on demand,
// so a server started without `--auth-issuer` does not pay for it at start-up.
import type { AuthenticateContext, RequestAuthenticator } from '@wiremcp/auth/server';
import type { HttpAuthenticator } from '@wiremcp/transport-http';
import { UsageError, type FlagValues, type ServerFlags } from './server-flags.js';

/** The protection chosen on the command line. */
export interface AuthConfig {
  /** Trusted issuers, in the order given; all are listed as authorization servers in the metadata. */
  readonly issuers: readonly string[];
  /** The canonical resource URI (token audience); `undefined`: the URL the server listens on. */
  readonly audience: string | undefined;
  /** The JWKS URL of the (single) issuer, instead of the one its metadata names. */
  readonly jwksUri: string | undefined;
  /** Scopes every request needs (also the metadata's `scopes_supported`, with the per-tool ones). */
  readonly scopes: readonly string[];
  /** Extra scopes per tool, for `tools/call`. */
  readonly toolScopes: Readonly<Record<string, readonly string[]>>;
  /** DPoP: Bearer and DPoP-bound tokens (`allowed`), only DPoP (`required`), only Bearer (`disabled`). */
  readonly dpop: 'allowed' | 'required' | 'disabled';
}

/** The auth flags, added to the HTTP mode's. */
export const AUTH_FLAGS: ServerFlags = {
  'auth-issuer': { type: 'string', multiple: true },
  'auth-audience': { type: 'string' },
  'auth-jwks': { type: 'string' },
  'auth-scope': { type: 'string', multiple: true },
  'auth-tool-scope': { type: 'string', multiple: true },
  'auth-dpop': { type: 'string' },
};

/** Their lines in the usage text. */
export const AUTH_USAGE =
  '  --auth-issuer URL\n' +
  '              require OAuth access tokens (JWTs) from this issuer (repeatable);\n' +
  '              its keys come from its metadata (RFC 8414 or OpenID discovery)\n' +
  '  --auth-audience URI\n' +
  '              the canonical URI clients use for this server, which tokens must\n' +
  '              name as audience (default: the URL listened on; required when\n' +
  '              binding a non-loopback address)\n' +
  '  --auth-jwks URL\n' +
  "              the issuer's JWKS, instead of the jwks_uri of its metadata\n" +
  '  --auth-scope SCOPE\n' +
  '              a scope every request needs (repeatable, or space-separated)\n' +
  '  --auth-tool-scope TOOL=SCOPE[,SCOPE]\n' +
  '              scopes a tool call needs besides those (repeatable)\n' +
  '  --auth-dpop allowed|required|disabled\n' +
  '              DPoP-bound tokens (RFC 9449): accepted beside Bearer tokens\n' +
  '              (default), required, or refused\n';

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

function httpUrl(flag: string, text: string, loopbackHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--${flag} needs an absolute URL, got ${JSON.stringify(text)}`);
  }
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHttp && loopback)) {
    throw new UsageError(`--${flag} needs an https URL (plain http only on a loopback host), got ${JSON.stringify(text)}`);
  }
  if (url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new UsageError(`--${flag} must hold no fragment and no credentials, got ${JSON.stringify(url.origin + url.pathname)}`);
  }
  return url;
}

function scopesOf(flag: string, text: string): string[] {
  const scopes = text.split(/[\s,]+/).filter((scope) => scope !== '');
  for (const scope of scopes) if (!SCOPE.test(scope)) throw new UsageError(`--${flag}: ${JSON.stringify(scope)} is not a valid scope`);
  return scopes;
}

/**
 * The auth configuration the flags ask for, `undefined` when no `--auth-issuer` is given; throws a `UsageError` for
 * a bad value, or for an `--auth-*` flag without `--auth-issuer`.
 */
export function parseAuthFlags(values: FlagValues, bindsLoopback: boolean): AuthConfig | undefined {
  const issuers = (values['auth-issuer'] as string[] | undefined) ?? [];
  if (issuers.length === 0) {
    const stray = Object.keys(AUTH_FLAGS).find((flag) => values[flag] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} applies only with --auth-issuer`);
    return undefined;
  }
  // An issuer identifier is compared exactly with the tokens' `iss`: keep it as given, only checked.
  for (const issuer of issuers) httpUrl('auth-issuer', issuer, true);
  const audienceText = values['auth-audience'] as string | undefined;
  if (audienceText === undefined && !bindsLoopback) {
    throw new UsageError('--auth-audience is required when serving on a non-loopback address (the public URL of the endpoint)');
  }
  const audience = audienceText === undefined ? undefined : httpUrl('auth-audience', audienceText, true);
  if (audience && audience.search !== '') throw new UsageError('--auth-audience must hold no query');
  const jwks = values['auth-jwks'] as string | undefined;
  if (jwks !== undefined && issuers.length !== 1) throw new UsageError('--auth-jwks needs exactly one --auth-issuer');
  const scopes = ((values['auth-scope'] as string[] | undefined) ?? []).flatMap((text) => scopesOf('auth-scope', text));
  const toolScopes: Record<string, string[]> = {};
  for (const entry of (values['auth-tool-scope'] as string[] | undefined) ?? []) {
    const separator = entry.indexOf('=');
    const tool = entry.slice(0, separator).trim();
    const needed = separator < 0 ? [] : scopesOf('auth-tool-scope', entry.slice(separator + 1));
    if (tool === '' || needed.length === 0)
      throw new UsageError(`--auth-tool-scope needs TOOL=SCOPE[,SCOPE], got ${JSON.stringify(entry)}`);
    toolScopes[tool] = [...new Set([...(toolScopes[tool] ?? []), ...needed])];
  }
  const dpop = (values['auth-dpop'] as string | undefined) ?? 'allowed';
  if (dpop !== 'allowed' && dpop !== 'required' && dpop !== 'disabled') {
    throw new UsageError(`--auth-dpop must be allowed, required or disabled, got ${JSON.stringify(dpop)}`);
  }
  return {
    issuers,
    // The canonical form (RFC 8707): lower-case scheme and host, no trailing slash on a bare origin.
    audience: audience === undefined ? undefined : audience.pathname === '/' ? audience.origin : audience.href,
    jwksUri: jwks === undefined ? undefined : httpUrl('auth-jwks', jwks, true).href,
    scopes: [...new Set(scopes)],
    toolScopes,
    dpop,
  };
}

/**
 * An authenticator whose real one is set once the resource URI is known (the listening URL, when no audience was
 * given): the handler exists before the socket is bound. Until then every request gets 503.
 */
export class DeferredAuthenticator implements HttpAuthenticator {
  #inner: RequestAuthenticator | undefined;

  /** Sets the authenticator every later request goes to. */
  set(inner: RequestAuthenticator): void {
    this.#inner = inner;
  }

  protectedResourceMetadata(request: Request): Response | undefined {
    return this.#inner?.protectedResourceMetadata(request);
  }

  authenticate(request: Request, context: AuthenticateContext): ReturnType<RequestAuthenticator['authenticate']> {
    if (this.#inner) return this.#inner.authenticate(request, context);
    return Promise.resolve({ response: new Response(null, { status: 503, headers: { 'retry-after': '1' } }) });
  }

  authorize(principal: unknown, context: AuthenticateContext): Response | undefined {
    return this.#inner?.authorize(principal as Parameters<RequestAuthenticator['authorize']>[0], context);
  }
}
