/**
 * Hostile requests against the reference servers with OAuth on, as an attacker holding a token with too little scope
 * would send them: every header form, every era, every route. Each must be refused before the tool runs (403
 * `insufficient_scope`, or 400 for headers that do not match the body), and nothing the tool would do may happen.
 */
import { mkdtempSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startOpenIdProvider, type OpenIdProvider } from './openid-provider.js';
import { assertBuilt, EVERYTHING, FILESYSTEM, startHttpServer, stopAllServers, type ServerProcess } from './server-process.js';

beforeAll(() => {
  assertBuilt(EVERYTHING);
  assertBuilt(FILESYSTEM);
});

let op: OpenIdProvider;
beforeAll(async () => {
  op = await startOpenIdProvider();
});
afterAll(async () => {
  await op?.close();
});
afterEach(() => stopAllServers());

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const base64Form = (value: string): string => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** A 2026-07-28 POST of `method` on `name` with `Mcp-Name` as given (`undefined`: no header). */
function modernPost(url: string, token: string, method: string, params: Record<string, unknown>, mcpName: string | undefined) {
  const headers: Record<string, string> = {
    ...ACCEPT,
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (mcpName !== undefined) headers['mcp-name'] = mcpName;
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } }),
  });
}

async function legacySession(url: string, token: string, version = '2025-11-25'): Promise<Record<string, string>> {
  const auth = { ...ACCEPT, authorization: `Bearer ${token}` };
  const opened = await fetch(url, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
    }),
  });
  expect(opened.status).toBe(200);
  const session = opened.headers.get('mcp-session-id')!;
  await opened.body?.cancel();
  const headers = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': version };
  const initialized = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return headers;
}

/** Both forms of `Mcp-Name` a client may send. */
const FORMS = [
  ['plain', (name: string) => name],
  ['base64', base64Form],
] as const;

/** `bin` over HTTP behind the provider: every request needs `mcp:read`, `tool` needs `scope` too; and a reader's token. */
async function protectedServer(bin: { script: string }, tool: string, scope: string, extra: readonly string[] = []) {
  const server = await startHttpServer(bin, [
    '--auth-issuer',
    op.issuer,
    '--auth-scope',
    'mcp:read',
    '--auth-tool-scope',
    `${tool}=${scope}`,
    ...extra,
  ]);
  return { server, reader: await op.serviceToken(server.url, 'mcp:read') };
}

function expectInsufficientScope(response: Response, scope: string): void {
  expect(response.status).toBe(403);
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain(scope);
}

describe('the everything server: a tool that needs mcp:admin, a token with mcp:read only', () => {
  let server: ServerProcess;
  let reader: string;
  const start = async (): Promise<void> => {
    ({ server, reader } = await protectedServer(EVERYTHING, 'test_embedded_resource', 'mcp:admin'));
  };
  const callEmbedded = (mcpName: string) =>
    modernPost(server.url, reader, 'tools/call', { name: 'test_embedded_resource', arguments: {} }, mcpName);

  test.each(FORMS)('2026-07-28 tools/call with a %s Mcp-Name is refused with 403 naming mcp:admin', async (_form, encode) => {
    await start();
    const response = await callEmbedded(encode('test_embedded_resource'));
    const body = await response.text();
    expectInsufficientScope(response, 'mcp:admin');
    expect(body).not.toContain('test://embedded-resource');
  });

  test('2026-07-28 tools/call with an Mcp-Name naming another tool is a 400 header mismatch, never a run', async () => {
    await start();
    const response = await callEmbedded('test_simple_text');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32020 } });
  });

  test('2025-11-25 session and 2025-03-26 batch: refused too', async () => {
    await start();
    const headers = await legacySession(server.url, reader);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_embedded_resource', arguments: {} } };
    expectInsufficientScope(await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(call) }), 'mcp:admin');
    const batchHeaders = await legacySession(server.url, reader, '2025-03-26');
    const ping = { jsonrpc: '2.0', id: 3, method: 'ping' };
    expectInsufficientScope(
      await fetch(server.url, { method: 'POST', headers: batchHeaders, body: JSON.stringify([ping, call]) }),
      'mcp:admin',
    );
  });
});

describe('the filesystem server: write_file needs mcp:write, a token with mcp:read only', () => {
  let root: string;
  let server: ServerProcess;
  let reader: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'wiremcp-bypass-'));
    writeFileSync(join(root, 'existing.txt'), 'kept\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const start = async (): Promise<void> => {
    ({ server, reader } = await protectedServer(FILESYSTEM, 'write_file', 'mcp:write', [root]));
  };

  test.each(FORMS)('2026-07-28 write_file with a %s Mcp-Name is refused and writes nothing', async (form, encode) => {
    await start();
    const target = join(root, `written-${form}.txt`);
    const response = await modernPost(
      server.url,
      reader,
      'tools/call',
      { name: 'write_file', arguments: { path: target, content: 'pwned' } },
      encode('write_file'),
    );
    await response.text();
    expectInsufficientScope(response, 'mcp:write');
    expect(existsSync(target)).toBe(false);
  });
});
