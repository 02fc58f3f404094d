/**
 * Test helper: an in-process authorization server and MCP-like resource server with the knobs the MCP auth rules
 * turn on (metadata locations, issuer variants, registration answers, DPoP, nonces, scope challenges), recording
 * what the client sent. Written for this package's tests; it checks PKCE itself so a client bug cannot hide.
 */
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { createHash, randomUUID } from 'node:crypto';
import { json, serve, type Served } from './serve.js';

export interface AsOptions {
  /** Paths (relative to the AS origin) that serve the metadata. Default: RFC 8414 at the root. */
  metadataPaths?: string[];
  routePrefix?: string;
  /** `issuer` in the metadata (default: origin + routePrefix). */
  issuer?: (origin: string) => string;
  iss?: 'correct' | 'wrong' | 'omit' | 'normalized';
  issSupported?: boolean | null;
  scopesSupported?: string[];
  authMethods?: string[];
  grantTypes?: string[];
  registration?: boolean | ((body: Record<string, unknown>) => Record<string, unknown>);
  cimd?: boolean;
  pkce?: string[] | null;
  dpopAlgs?: string[];
  dpopNonce?: string;
  refreshTokens?: boolean;
  tokenHook?: (body: URLSearchParams, headers: Headers) => Record<string, unknown> | undefined;
  /** The origin the AS is reached at, when another server forwards to it (2025-03-26 layouts). */
  publicOrigin?: () => string;
  /** Scopes actually granted for the requested ones (default: all requested). */
  grantScopes?: (requested: string[]) => string[];
}

export interface TokenRecord {
  token: string;
  scopes: string[];
  jkt?: string;
  issuer: string;
}

export interface MockAs {
  readonly url: string;
  readonly issuer: string;
  readonly authorizations: URLSearchParams[];
  readonly tokenRequests: { body: URLSearchParams; headers: Headers }[];
  readonly registrations: Record<string, unknown>[];
  readonly metadataRequests: string[];
  readonly tokens: Map<string, TokenRecord>;
  close(): Promise<void>;
}

async function proofJkt(proof: string, htu: string): Promise<string> {
  const header = decodeProtectedHeader(proof);
  const jwk = header.jwk as JWK;
  const { payload } = await jwtVerify(proof, await importJWK(jwk, header.alg!), { typ: 'dpop+jwt' });
  if (payload.htu !== htu || payload.htm !== 'POST') throw new Error('proof for another request');
  return calculateJwkThumbprint(jwk);
}

export async function mockAuthorizationServer(options: AsOptions = {}, registry = new Map<string, TokenRecord>()): Promise<MockAs> {
  const prefix = options.routePrefix ?? '';
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: { body: URLSearchParams; headers: Headers }[] = [];
  const registrations: Record<string, unknown>[] = [];
  const metadataRequests: string[] = [];
  const codes = new Map<string, { challenge: string; scope: string }>();
  let origin = '';
  const publicOrigin = (): string => options.publicOrigin?.() ?? origin;
  const issuer = (): string => options.issuer?.(publicOrigin()) ?? `${publicOrigin()}${prefix}`;
  const served: Served = await serve(async (request) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && (options.metadataPaths ?? ['/.well-known/oauth-authorization-server']).includes(url.pathname)) {
      metadataRequests.push(url.pathname);
      return json({
        issuer: issuer(),
        authorization_endpoint: `${publicOrigin()}${prefix}/authorize`,
        token_endpoint: `${publicOrigin()}${prefix}/token`,
        ...(options.registration === false ? {} : { registration_endpoint: `${publicOrigin()}${prefix}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: options.grantTypes ?? ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: options.authMethods ?? ['none'],
        ...(options.pkce === null ? {} : { code_challenge_methods_supported: options.pkce ?? ['S256'] }),
        ...(options.issSupported === null ? {} : { authorization_response_iss_parameter_supported: options.issSupported ?? true }),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        ...(options.cimd ? { client_id_metadata_document_supported: true } : {}),
        ...(options.dpopAlgs ? { dpop_signing_alg_values_supported: options.dpopAlgs } : {}),
      });
    }
    if (url.pathname === `${prefix}/authorize`) {
      authorizations.push(url.searchParams);
      const code = randomUUID();
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', scope: url.searchParams.get('scope') ?? '' });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      if (url.searchParams.has('state')) back.searchParams.set('state', url.searchParams.get('state')!);
      const iss = options.iss ?? 'correct';
      if (iss === 'correct') back.searchParams.set('iss', issuer());
      if (iss === 'wrong') back.searchParams.set('iss', 'https://evil.example.com');
      if (iss === 'normalized') back.searchParams.set('iss', `${issuer()}/`);
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname === `${prefix}/register` && request.method === 'POST' && options.registration !== false) {
      const body = (await request.json()) as Record<string, unknown>;
      registrations.push(body);
      const answer =
        typeof options.registration === 'function' ? options.registration(body) : { client_id: `client-${registrations.length}` };
      return json({ ...body, ...answer }, 201);
    }
    if (url.pathname === `${prefix}/token` && request.method === 'POST') {
      const body = new URLSearchParams(await request.text());
      tokenRequests.push({ body, headers: request.headers });
      let jkt: string | undefined;
      const proof = request.headers.get('dpop');
      if (proof && options.dpopAlgs) {
        jkt = await proofJkt(proof, `${publicOrigin()}${prefix}/token`).catch(() => undefined);
        if (!jkt) return json({ error: 'invalid_dpop_proof' }, 400);
        if (options.dpopNonce && decodeJwt(proof).nonce !== options.dpopNonce) {
          return json({ error: 'use_dpop_nonce' }, 400, { 'dpop-nonce': options.dpopNonce });
        }
      }
      const custom = options.tokenHook?.(body, request.headers);
      if (custom && 'error' in custom) return json(custom, 400);
      let scope = body.get('scope') ?? '';
      if (body.get('grant_type') === 'authorization_code') {
        const entry = codes.get(body.get('code') ?? '');
        codes.delete(body.get('code') ?? '');
        const verifier = body.get('code_verifier') ?? '';
        if (!entry || createHash('sha256').update(verifier).digest('base64url') !== entry.challenge)
          return json({ error: 'invalid_grant' }, 400);
        scope = entry.scope;
      }
      if (body.get('grant_type') === 'refresh_token') {
        const previous = registry.get(`refresh:${body.get('refresh_token')}`);
        if (!previous) return json({ error: 'invalid_grant' }, 400);
        registry.delete(`refresh:${body.get('refresh_token')}`);
        scope = previous.scopes.join(' ');
      }
      const token = `at-${randomUUID()}`;
      const requested = scope ? scope.split(' ') : [];
      const record: TokenRecord = {
        token,
        scopes: options.grantScopes ? options.grantScopes(requested) : requested,
        issuer: issuer(),
        ...(jkt ? { jkt } : {}),
      };
      registry.set(token, record);
      const refresh = options.refreshTokens ? `rt-${randomUUID()}` : undefined;
      if (refresh) registry.set(`refresh:${refresh}`, record);
      return json({
        access_token: token,
        token_type: jkt ? 'DPoP' : 'Bearer',
        expires_in: 3600,
        ...(refresh ? { refresh_token: refresh } : {}),
        ...custom,
      });
    }
    return new Response('not found', { status: 404 });
  });
  origin = served.url;
  return {
    url: served.url,
    get issuer() {
      return issuer();
    },
    authorizations,
    tokenRequests,
    registrations,
    metadataRequests,
    tokens: registry,
    close: () => served.close(),
  };
}
