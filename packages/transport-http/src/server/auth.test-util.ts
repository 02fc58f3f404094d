/**
 * Test helpers for authorization: a locally generated signing key (a JWKS of one key), tokens for any subject and
 * scopes, the real `@wiremcp/auth` resource server over it, and a server whose tools, prompts, resources, resource
 * templates and task-capable tool each need a scope of their own.
 */
import { createRequestAuthenticator, JwtTokenVerifier, type ScopePolicyConfig } from '@wiremcp/auth/server';
import { encodeHeaderValue, MetaKey, type JsonObject } from '@wiremcp/protocol';
import { McpServer, MemoryTaskStore, type TaskStore } from '@wiremcp/server';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { BOTH, ENDPOINT, post } from './http.test-util.js';

export const ISSUER = 'https://login.example.com';

let keys: Promise<{ signingKey: CryptoKey; publicJwk: JWK }> | undefined;

function signingKeys(): Promise<{ signingKey: CryptoKey; publicJwk: JWK }> {
  keys ??= generateKeyPair('ES256').then(async (pair) => ({
    signingKey: pair.privateKey,
    publicJwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' },
  }));
  return keys;
}

const tokens = new Map<string, Promise<string>>();

/** An access token for `subject` with `scope` (space-separated), for the test endpoint; one per pair, reused. */
export function token(subject: string, scope = 'mcp:read'): Promise<string> {
  const key = `${subject} ${scope}`;
  let made = tokens.get(key);
  if (made === undefined) {
    made = signingKeys().then(({ signingKey }) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: ISSUER, aud: ENDPOINT, sub: subject, client_id: 'app', scope, iat: now, exp: now + 3600 })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .sign(signingKey);
    });
    tokens.set(key, made);
  }
  return made;
}

/** The `Authorization` header of {@link token}. */
export async function bearer(subject: string, scope?: string): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await token(subject, scope)}` };
}

/** The real resource server with `scopes`. */
export async function authenticator(scopes: ScopePolicyConfig) {
  const { publicJwk } = await signingKeys();
  return createRequestAuthenticator({
    resource: ENDPOINT,
    authorizationServers: [ISSUER],
    scopesSupported: ['mcp:read'],
    verifier: new JwtTokenVerifier({ issuers: [{ issuer: ISSUER, jwks: { keys: [publicJwk] } }] }),
    scopes,
  });
}

/** The policy of {@link scopedServer}: each protected thing has a scope of its own, beside `mcp:read` for all. */
export const POLICY = {
  always: ['mcp:read'],
  tools: { secret_tool: ['x:tool'], constructor: ['x:odd'] },
  prompts: { secret_prompt: ['x:prompt'] },
  resources: { 'test://secret/*': ['x:res'], 'test://files/private/*': ['x:res'], 'test://ünï/é': ['x:uni'] },
} as const satisfies ScopePolicyConfig;

const NO_ARGS = { type: 'object', properties: {} } as const;
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * A server with an open and a protected tool, prompt, resource and resource template (the tools task-capable, their
 * tasks kept in `store`).
 */
export function scopedServer(store: TaskStore = new MemoryTaskStore()): McpServer {
  const server = new McpServer({ name: 'scoped', version: '1.0.0' }, { tasks: { store }, onInternalError: () => {} });
  for (const name of ['open_tool', 'secret_tool', 'constructor']) {
    server.registerTool({ name, inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } }, () => text(`ran ${name}`));
  }
  for (const name of ['open_prompt', 'secret_prompt']) {
    server.registerPrompt(
      { name, arguments: [{ name: 'topic' }] },
      () => ({ messages: [{ role: 'user', content: { type: 'text', text: name } }] }),
      { complete: { topic: () => ({ values: [`${name}-topic`] }) } },
    );
  }
  for (const uri of ['test://open/a', 'test://secret/a', 'test://ünï/é']) {
    server.registerResource({ uri, name: uri }, () => ({ contents: [{ uri, text: `content of ${uri}` }] }));
  }
  for (const area of ['open', 'secret']) {
    server.registerResourceTemplate(
      { uriTemplate: `test://${area}/{id}`, name: `${area} by id` },
      (uri) => ({ contents: [{ uri, text: uri }] }),
      { complete: { id: () => [`${area}-id`] } },
    );
  }
  // Templates that read a dot segment or an escaped slash as a value: the private one is reached by
  // `test://files/private/..`, and `test://files/{name}` gets `private/a` from `test://files/private%2Fa`.
  for (const template of ['test://files/private/{name}', 'test://files/{name}']) {
    server.registerResourceTemplate({ uriTemplate: template, name: template }, (uri, variables) => ({
      contents: [{ uri, text: `${template} read ${JSON.stringify(variables)}` }],
    }));
  }
  return server;
}

/** The 2026-07-28 `_meta` (with the tasks extension). */
export const MODERN_META = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
} as const;

/** How a test writes `Mcp-Name`: as a client would (plain when it may), always base64, or not at all. */
export type NameForm = 'client' | 'base64' | 'absent';

/** The base64 form of a header value, even where the plain form would do. */
export function base64Form(value: string): string {
  return `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}?=`;
}

/** A 2026-07-28 POST of `method`; `name` is the `Mcp-Name` value to send (already encoded), if any. */
export function modernCall(method: string, params: JsonObject, name: string | undefined, headers: Record<string, string>, id = 1): Request {
  const all: Record<string, string> = {
    'content-type': 'application/json',
    accept: BOTH,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...headers,
  };
  if (name !== undefined) all['mcp-name'] = name;
  return post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }, all);
}

/** The `Mcp-Name` value of `form` for `value`. */
export function nameHeader(value: string | undefined, form: NameForm): string | undefined {
  if (value === undefined || form === 'absent') return undefined;
  return form === 'client' ? encodeHeaderValue(value) : base64Form(value);
}

/** The scopes a refusal's challenge names (`scope="…"` of `WWW-Authenticate`). */
export function challengedScopes(response: Response): string[] {
  const match = /scope="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '');
  return match === null ? [] : match[1]!.split(' ').sort();
}
