/**
 * Test helper: an MCP-like protected resource (POST /mcp with a JSON-RPC body) guarded by tokens from
 * {@link mockAuthorizationServer}: PRM documents, 401/403 challenges, DPoP proof checks and nonces.
 */
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { createHash } from 'node:crypto';
import type { TokenRecord } from './mock-oauth.js';
import { json, serve } from './serve.js';

export interface RsOptions {
  /** Where the PRM is served (null: nowhere). Default: path-based for /mcp. */
  prmPath?: string | null;
  prmResource?: (origin: string) => string;
  authorizationServers: () => string[];
  scopesSupported?: string[];
  /** Put `resource_metadata` in the challenge (default true). */
  challengeWithPrm?: boolean;
  /** Scopes required per JSON-RPC method (default: none). */
  require?: (method: string) => string[];
  /** Put the required scopes in the 401 challenge (default false). */
  challengeScope?: boolean;
  /** Require this DPoP nonce in proofs. */
  rsNonce?: string;
  /** Which tokens are currently accepted (default: any in the registry). */
  accept?: (record: TokenRecord) => boolean;
  /** Where requests for other paths go (e.g. an authorization server on the same origin). */
  forward?: string;
}

export interface MockRs {
  readonly url: string;
  readonly mcpUrl: string;
  readonly prmRequests: string[];
  readonly requests: { method: string; authorization: string | null; dpop: string | null }[];
  close(): Promise<void>;
}

export async function mockResourceServer(options: RsOptions, registry: Map<string, TokenRecord>): Promise<MockRs> {
  const prmRequests: string[] = [];
  const requests: { method: string; authorization: string | null; dpop: string | null }[] = [];
  const jtis = new Set<string>();
  let origin = '';
  const prmPath = options.prmPath === undefined ? '/.well-known/oauth-protected-resource/mcp' : options.prmPath;
  const served = await serve(async (request) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname.startsWith('/.well-known/oauth-protected-resource')) prmRequests.push(url.pathname);
    if (request.method === 'GET' && prmPath !== null && url.pathname === prmPath) {
      const resource = options.prmResource?.(origin) ?? (prmPath === '/.well-known/oauth-protected-resource' ? origin : `${origin}/mcp`);
      return json({
        resource,
        authorization_servers: options.authorizationServers(),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (url.pathname !== '/mcp' && options.forward) {
      const body = request.method === 'GET' ? undefined : await request.text();
      const forwarded = await fetch(`${options.forward}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
      });
      const headers = new Headers(forwarded.headers);
      for (const name of ['transfer-encoding', 'content-length', 'connection', 'keep-alive', 'content-encoding']) headers.delete(name);
      return new Response(await forwarded.arrayBuffer(), { status: forwarded.status, headers });
    }
    if (url.pathname !== '/mcp' || request.method !== 'POST') return new Response('not found', { status: 404 });
    const body = (await request.json()) as { method: string };
    const authorization = request.headers.get('authorization');
    const dpop = request.headers.get('dpop');
    requests.push({ method: body.method, authorization, dpop });
    const required = options.require?.(body.method) ?? [];
    const params = (extra: string): string =>
      [extra, options.challengeWithPrm === false || prmPath === null ? '' : `resource_metadata="${origin}${prmPath}"`]
        .filter(Boolean)
        .join(', ');
    const challenge = (status: number, extra: string, headers: Record<string, string> = {}) =>
      json({ error: 'unauthorized' }, status, { 'www-authenticate': `Bearer ${params(extra)}`, ...headers });
    const scopeParam = options.challengeScope && required.length ? `scope="${required.join(' ')}"` : '';
    const match = /^(Bearer|DPoP) (\S+)$/.exec(authorization ?? '');
    const record = match ? registry.get(match[2]!) : undefined;
    if (!match || !record || (options.accept && !options.accept(record)))
      return challenge(401, match ? `error="invalid_token", ${scopeParam}`.replace(/, $/, '') : scopeParam);
    if (record.jkt) {
      if (match[1] !== 'DPoP' || !dpop) return challenge(401, 'error="invalid_token"');
      const header = decodeProtectedHeader(dpop);
      const claims = decodeJwt(dpop);
      const ath = createHash('sha256').update(match[2]!).digest('base64url');
      if ((await calculateJwkThumbprint(header.jwk as JWK)) !== record.jkt || claims.ath !== ath || claims.htu !== `${origin}/mcp`) {
        return challenge(401, 'error="invalid_dpop_proof"');
      }
      if (jtis.has(claims.jti!)) return challenge(401, 'error="invalid_dpop_proof"');
      jtis.add(claims.jti!);
      if (options.rsNonce && claims.nonce !== options.rsNonce) {
        return json({ error: 'use_dpop_nonce' }, 401, {
          'www-authenticate': `DPoP error="use_dpop_nonce", ${params('')}`.replace(/, $/, ''),
          'dpop-nonce': options.rsNonce,
        });
      }
    }
    const missing = required.filter((scope) => !record.scopes.includes(scope));
    if (missing.length > 0) return challenge(403, `error="insufficient_scope", scope="${missing.join(' ')}"`);
    return json({ jsonrpc: '2.0', id: 1, result: { ok: true, method: body.method } });
  });
  origin = served.url;
  return { url: served.url, mcpUrl: `${served.url}/mcp`, prmRequests, requests, close: () => served.close() };
}
