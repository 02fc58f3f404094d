/**
 * Every row of the status and header tables (2026-07-28 §Server Validation and its error table; 2025-03-26 …
 * 2025-11-25 §Session Management, §Protocol Version Header; the transport's own checks), one request each through
 * the web-standard handler: the HTTP status, and the JSON-RPC error code where the body carries one.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { BOTH, initialize, json, meta, modernHeaders, modernPost, post, sessionHeaders, testHandler, ENDPOINT } from './http.test-util.js';

let handler: HttpHandler;
afterEach(async () => {
  await handler?.close();
});

interface Row {
  readonly name: string;
  readonly request: (session: () => Promise<string>) => Request | Promise<Request>;
  readonly status: number;
  readonly code?: number;
  readonly id?: string | number | null;
  readonly options?: Parameters<typeof testHandler>[0];
}

const call = (args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  modernPost('tools/call', { name: 'headers', arguments: args }, headers);

const b64 = (text: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;

const MODERN: Row[] = [
  { name: 'a request with every header right is served as JSON', request: () => modernPost('tools/list'), status: 200 },
  {
    name: 'a notification is accepted',
    request: () => post({ jsonrpc: '2.0', method: 'notifications/whatever' }, modernHeaders('x')),
    status: 202,
  },
  {
    name: 'MCP-Protocol-Version not matching _meta: -32020',
    request: () => modernPost('tools/list', {}, { 'mcp-protocol-version': '2026-07-29' }),
    status: 400,
    code: -32020,
    id: 1,
  },
  {
    name: 'MCP-Protocol-Version absent while the body claims 2026-07-28: -32020',
    request: () =>
      post(
        { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta() } },
        { 'content-type': 'application/json', accept: BOTH },
      ),
    status: 400,
    code: -32020,
    id: 3,
  },
  {
    name: 'a legacy MCP-Protocol-Version while the body claims 2026-07-28: -32020',
    request: () => modernPost('tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'an unsupported version in header and body: -32022',
    request: () =>
      post(
        {
          jsonrpc: '2.0',
          id: 301,
          method: 'server/discover',
          params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) },
        },
        {
          ...modernHeaders('server/discover'),
          'mcp-protocol-version': 'v999.0.0',
        },
      ),
    status: 400,
    code: -32022,
    id: 301,
  },
  {
    name: '_meta missing: -32602',
    request: () => post({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }, modernHeaders('tools/list')),
    status: 400,
    code: -32602,
    id: 4,
  },
  {
    name: '_meta without clientCapabilities: -32602',
    request: () =>
      post(
        { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
        modernHeaders('tools/list'),
      ),
    status: 400,
    code: -32602,
  },
  {
    name: 'an invalid log level in _meta: -32602',
    request: () => modernPost('tools/list', { _meta: { 'io.modelcontextprotocol/logLevel': 'loud' } }),
    status: 400,
    code: -32602,
  },
  {
    name: 'a method the server does not have: 404 -32601',
    request: () => modernPost('no/such/method'),
    status: 404,
    code: -32601,
    id: 1,
  },
  {
    name: 'initialize with a modern header claims the 2026-07-28 envelope, where it is removed: 404 -32601',
    request: () => modernPost('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    status: 404,
    code: -32601,
  },
  { name: 'ping is legacy-only: 404 -32601', request: () => modernPost('ping'), status: 404, code: -32601 },
  {
    name: 'logging/setLevel is legacy-only: 404 -32601',
    request: () => modernPost('logging/setLevel', { level: 'info' }),
    status: 404,
    code: -32601,
  },
  {
    name: 'resources/subscribe is legacy-only: 404 -32601',
    request: () => modernPost('resources/subscribe', { uri: 'x://y' }),
    status: 404,
    code: -32601,
  },
  {
    name: 'a missing client capability: 400 -32021',
    request: () => modernPost('tools/call', { name: 'sample', arguments: {} }),
    status: 400,
    code: -32021,
  },
  {
    name: "a method's own -32602 (unknown tool) stays 200",
    request: () => modernPost('tools/call', { name: 'nope', arguments: {} }),
    status: 200,
    code: -32602,
  },
  { name: 'Mcp-Method missing: -32020', request: () => modernPost('tools/list', {}, { 'mcp-method': '' }), status: 400, code: -32020 },
  {
    name: 'Mcp-Method not matching: -32020',
    request: () => modernPost('tools/list', {}, { 'mcp-method': 'prompts/list' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Method values are case-sensitive: -32020',
    request: () => modernPost('tools/list', {}, { 'mcp-method': 'TOOLS/LIST' }),
    status: 400,
    code: -32020,
  },
  { name: 'header names are case-insensitive', request: () => modernPost('tools/list', {}, { 'MCP-METHOD': 'tools/list' }), status: 200 },
  {
    name: 'whitespace around a header value is not part of it',
    request: () => modernPost('tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': '  echo  ' }),
    status: 200,
  },
  {
    name: 'Mcp-Name missing: -32020',
    request: () => modernPost('tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': '' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Name not matching: -32020',
    request: () => modernPost('tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': 'wrong_tool_name' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Name of tasks/get is the taskId (tasks extension): missing, -32020',
    request: () => modernPost('tasks/get', { taskId: 't-1' }, { 'mcp-name': '' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Name of tasks/cancel not matching the taskId: -32020',
    request: () => modernPost('tasks/cancel', { taskId: 't-1' }, { 'mcp-name': 't-2' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Name of resources/read is the uri, and may be Base64-encoded',
    request: () => modernPost('resources/read', { uri: 'x://é' }, { 'mcp-name': b64('x://é') }),
    status: 200,
  },
  { name: 'Mcp-Param-* matching (plain)', request: () => call({ region: 'us-west1' }, { 'mcp-param-region': 'us-west1' }), status: 200 },
  {
    name: 'Mcp-Param-* matching (Base64 of UTF-8)',
    request: () => call({ region: 'Hello, 世界' }, { 'mcp-param-region': b64('Hello, 世界') }),
    status: 200,
  },
  { name: 'Mcp-Param-* header name is case-insensitive', request: () => call({ region: 'eu' }, { 'MCP-PARAM-REGION': 'eu' }), status: 200 },
  {
    name: 'Mcp-Param-* Base64 of surrounding spaces',
    request: () => call({ region: ' padded ' }, { 'mcp-param-region': b64(' padded ') }),
    status: 200,
  },
  {
    name: 'Mcp-Param-* literal value that looks like Base64 (no sentinel)',
    request: () => call({ region: 'SGVsbG8=' }, { 'mcp-param-region': 'SGVsbG8=' }),
    status: 200,
  },
  {
    name: 'Mcp-Param-* missing sentinel suffix is a literal',
    request: () => call({ region: '=?base64?SGVsbG8=' }, { 'mcp-param-region': '=?base64?SGVsbG8=' }),
    status: 200,
  },
  {
    name: 'Mcp-Param-* Base64 with bad padding: -32020',
    request: () => call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Param-* Base64 with bad characters: -32020',
    request: () => call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Param-* Base64 of invalid UTF-8: -32020',
    request: () => call({ region: 'x' }, { 'mcp-param-region': '=?base64?/w==?=' }),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Param-* not matching: -32020',
    request: () => call({ region: 'us' }, { 'mcp-param-region': 'eu' }),
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Param-* omitted while the body has the value: -32020', request: () => call({ region: 'us' }), status: 400, code: -32020 },
  {
    name: 'Mcp-Param-* sent while the body has no value: -32020',
    request: () => call({}, { 'mcp-param-region': 'us' }),
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Param-* not expected for a null value', request: () => call({ region: null }), status: 200 },
  { name: 'Mcp-Param-* integer compared numerically', request: () => call({ count: 42 }, { 'mcp-param-count': '42.0' }), status: 200 },
  {
    name: 'Mcp-Param-* integer not matching: -32020',
    request: () => call({ count: 42 }, { 'mcp-param-count': '43' }),
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Param-* boolean as true/false', request: () => call({ flag: false }, { 'mcp-param-flag': 'false' }), status: 200 },
  {
    name: 'Mcp-Param-* boolean not matching: -32020',
    request: () => call({ flag: true }, { 'mcp-param-flag': 'True' }),
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Param-* of a nested property', request: () => call({ nested: { zone: 'b' } }, { 'mcp-param-zone': 'b' }), status: 200 },
  {
    name: 'a batch: 400 -32600',
    request: () => post([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }], modernHeaders('tools/list')),
    status: 400,
    code: -32600,
  },
  {
    name: 'a response in the body: 400',
    request: () => post({ jsonrpc: '2.0', id: 1, result: {} }, modernHeaders('x')),
    status: 400,
    code: -32600,
  },
  {
    name: 'GET without a session: 405',
    request: () => new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } }),
    status: 405,
  },
  {
    name: 'DELETE without a session: 405',
    request: () => new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-protocol-version': '2026-07-28' } }),
    status: 405,
  },
  {
    name: 'Mcp-Session-Id is ignored on a modern request (and never echoed)',
    request: () => modernPost('tools/list', {}, { 'mcp-session-id': 'made-up' }),
    status: 200,
  },
];

const init = (version = '2025-11-25') =>
  post(
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {} } },
    { 'content-type': 'application/json', accept: BOTH },
  );

const LEGACY: Row[] = [
  { name: 'initialize without a session: 200', request: () => init(), status: 200 },
  {
    name: 'initialize with a session id: 400',
    request: () => post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, sessionHeaders('abc')),
    status: 400,
    code: -32600,
  },
  {
    name: 'a request without Mcp-Session-Id: 400',
    request: () => post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'content-type': 'application/json', accept: BOTH }),
    status: 400,
    id: 7,
  },
  {
    name: 'an unknown session: 404',
    request: () => post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders('nope')),
    status: 404,
  },
  {
    name: 'a request in a session: 200',
    request: async (s) => post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(await s())),
    status: 200,
  },
  {
    name: 'a notification in a session: 202',
    request: async (s) => post({ jsonrpc: '2.0', method: 'notifications/x' }, sessionHeaders(await s())),
    status: 202,
  },
  {
    name: 'a response in a session: 202',
    request: async (s) => post({ jsonrpc: '2.0', id: 99, result: {} }, sessionHeaders(await s())),
    status: 202,
  },
  {
    name: 'another revision in MCP-Protocol-Version: 400',
    request: async (s) => post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(await s(), '2025-06-18')),
    status: 400,
  },
  {
    name: 'no MCP-Protocol-Version in a session: the session revision (200)',
    request: async (s) =>
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': await s() },
      ),
    status: 200,
  },
  {
    name: 'a batch outside 2025-03-26: 400',
    request: async (s) => post([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], sessionHeaders(await s())),
    status: 400,
    code: -32600,
  },
  {
    name: 'an invalid message in a session: 400 -32600',
    request: async (s) => post({ jsonrpc: '1.0', id: 1, method: 'tools/list' }, sessionHeaders(await s())),
    status: 400,
    code: -32600,
  },
  {
    name: 'DELETE of a session: 200',
    request: async (s) => new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': await s() } }),
    status: 200,
  },
  { name: 'DELETE without a session: 400', request: () => new Request(ENDPOINT, { method: 'DELETE' }), status: 400 },
  {
    name: 'DELETE of an unknown session: 404',
    request: () => new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': 'x' } }),
    status: 404,
  },
  { name: 'GET without a session: 400', request: () => new Request(ENDPOINT, { headers: { accept: 'text/event-stream' } }), status: 400 },
  {
    name: 'GET of an unknown session: 404',
    request: () => new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' } }),
    status: 404,
  },
];

const TRANSPORT: Row[] = [
  {
    name: 'another path: 404',
    request: () => post({}, { 'content-type': 'application/json', accept: BOTH }, 'http://localhost/other'),
    status: 404,
  },
  { name: 'PUT: 405', request: () => new Request(ENDPOINT, { method: 'PUT', body: '{}' }), status: 405 },
  { name: 'a body that is not JSON: 415', request: () => post('{}', { 'content-type': 'text/plain', accept: BOTH }), status: 415 },
  {
    name: 'JSON in another charset: 415',
    request: () => post('{}', { 'content-type': 'application/json; charset=latin1', accept: BOTH }),
    status: 415,
  },
  {
    name: 'Accept without text/event-stream: 406',
    request: () => post('{}', { 'content-type': 'application/json', accept: 'application/json' }),
    status: 406,
  },
  { name: 'no Accept: 406', request: () => post('{}', { 'content-type': 'application/json' }), status: 406 },
  { name: 'Accept */* is fine', request: () => modernPost('tools/list', {}, { accept: '*/*' }), status: 200 },
  {
    name: 'Accept refusing SSE with q=0: 406',
    request: () => modernPost('tools/list', {}, { accept: 'application/json, text/event-stream;q=0' }),
    status: 406,
  },
  {
    name: 'GET with Accept without SSE: 406',
    request: () => new Request(ENDPOINT, { headers: { accept: 'application/json' } }),
    status: 406,
  },
  {
    name: 'malformed JSON: 400 -32700',
    request: () => post('{"jsonrpc":', { 'content-type': 'application/json', accept: BOTH }),
    status: 400,
    code: -32700,
    id: null,
  },
  {
    name: 'invalid UTF-8: 400 -32700',
    request: () =>
      new Request(ENDPOINT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: BOTH },
        body: new Uint8Array([0x22, 0xff, 0x22]),
      }),
    status: 400,
    code: -32700,
  },
  {
    name: 'a declared body over the limit: 413',
    request: () => post('{"x":"' + 'a'.repeat(200) + '"}', { 'content-type': 'application/json', accept: BOTH }),
    status: 413,
    options: { maxBodyBytes: 100 },
  },
  {
    name: 'an Origin that is not allowed: 403',
    request: () => modernPost('tools/list', {}, { origin: 'http://evil.example.com' }),
    status: 403,
  },
  { name: 'the same Origin: allowed', request: () => modernPost('tools/list', {}, { origin: 'http://localhost' }), status: 200 },
  {
    name: 'an allow-listed Origin',
    request: () => modernPost('tools/list', {}, { origin: 'https://app.example.com' }),
    status: 200,
    options: { allowedOrigins: ['https://app.example.com'] },
  },
  { name: "Origin 'null': 403", request: () => modernPost('tools/list', {}, { origin: 'null' }), status: 403 },
  {
    name: 'a Host not allow-listed: 403',
    request: () => modernPost('tools/list', {}, { host: 'evil.example.com' }),
    status: 403,
    options: { allowedHosts: ['localhost'] },
  },
  {
    name: 'CORS preflight: 204',
    request: () => new Request(ENDPOINT, { method: 'OPTIONS', headers: { origin: 'http://localhost' } }),
    status: 204,
  },
];

async function run(row: Row): Promise<void> {
  ({ handler } = testHandler(row.options));
  const response = await handler(await row.request(() => initialize(handler)));
  expect(response.status).toBe(row.status);
  if (row.code !== undefined || row.id !== undefined) {
    const body = await json(response);
    if (row.code !== undefined) {
      const error = body.error as { code?: number } | undefined;
      const result = body.result as { isError?: boolean } | undefined;
      expect(error?.code ?? (result ? 'result' : undefined)).toBe(row.code);
    }
    if (row.id !== undefined) expect(body.id).toBe(row.id);
  }
  expect(response.headers.get('mcp-session-id') === null || row.name.startsWith('initialize')).toBe(true);
}

describe('2026-07-28 requests', () => {
  test.each(MODERN)('$name', run);
});

describe('legacy sessions (2025-03-26 … 2025-11-25)', () => {
  test.each(LEGACY)('$name', run);

  test('a session id is visible ASCII from a CSPRNG (22 base64url characters), different every time', async () => {
    ({ handler } = testHandler());
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await handler(init())).headers.get('mcp-session-id')!);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('a failed initialize opens no session', async () => {
    ({ handler } = testHandler());
    const response = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { 'content-type': 'application/json', accept: BOTH }),
    );
    expect((await json(response)).error).toMatchObject({ code: -32602 });
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(handler.stats.sessions).toBe(0);
  });

  test('after DELETE the session id gets 404', async () => {
    ({ handler } = testHandler());
    const id = await initialize(handler);
    expect((await handler(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': id } }))).status).toBe(200);
    expect((await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(id)))).status).toBe(404);
  });

  test('2025-03-26: batches of requests get an array; a batch of notifications gets 202', async () => {
    ({ handler } = testHandler());
    const id = await initialize(handler, '2025-03-26');
    const headers = { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': id };
    const batch = await handler(
      post(
        [
          { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
          { jsonrpc: '2.0', method: 'notifications/whatever' },
          { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
        ],
        headers,
      ),
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Array<{ id: string }>;
    expect(answers.map((answer) => answer.id).sort()).toEqual(['a', 'b']);
    expect((await handler(post([{ jsonrpc: '2.0', method: 'notifications/x' }], headers))).status).toBe(202);
    expect((await handler(post([], headers))).status).toBe(400);
  });

  test('a request id already in progress in the session: 400', async () => {
    ({ handler } = testHandler());
    const id = await initialize(handler);
    const first = handler(
      post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'wait', arguments: {} } }, sessionHeaders(id)),
    );
    const second = await handler(post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, sessionHeaders(id)));
    expect(second.status).toBe(400);
    await handler.close(0);
    await first;
  });
});

describe('transport checks', () => {
  test.each(TRANSPORT)('$name', run);
});
