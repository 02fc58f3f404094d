// The Streamable HTTP client transport on 2026-07-28 requests: one POST per request with the headers mirrored
// from the body, JSON or request-scoped SSE answers, cancellation by aborting the POST, the refusals era
// detection relies on, and every failure as a LocalError.
import { afterEach, describe, expect, test } from 'vitest';
import { isLocalError } from '@wiremcp/protocol';
import { StreamableHttpClientTransport } from '../../src/client/index.js';
import { closeAllServers, event, json, methodOf, result, sse, startServer, type Recorded } from './http-server.test-util.js';
import { closeAllTransports, drive, modern, turns } from './transport.test-util.js';

afterEach(async () => {
  await closeAllTransports();
  await closeAllServers();
});

const CUSTOM_TOOL = {
  name: 'test_custom_headers',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      debug: { type: 'boolean', 'x-mcp-header': 'Debug' },
      empty_val: { type: 'string', 'x-mcp-header': 'EmptyVal' },
      method_val: { type: 'string', 'x-mcp-header': 'Method' },
      float_val: { type: 'number' },
      non_ascii_val: { type: 'string', 'x-mcp-header': 'NonAscii' },
      whitespace_val: { type: 'string', 'x-mcp-header': 'Whitespace' },
      internal_space_val: { type: 'string', 'x-mcp-header': 'InternalSpace' },
      crlf_val: { type: 'string', 'x-mcp-header': 'CrLf' },
      tab_val: { type: 'string', 'x-mcp-header': 'Tab' },
      sentinel_val: { type: 'string', 'x-mcp-header': 'Sentinel' },
      nested: { type: 'object', properties: { zone: { type: ['string', 'null'], 'x-mcp-header': 'Zone' } } },
      query: { type: 'string' },
    },
  },
};

const INVALID_TOOLS = [
  { name: 'invalid_empty', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': '' } } } },
  { name: 'invalid_object', inputSchema: { type: 'object', properties: { v: { type: 'object', 'x-mcp-header': 'Data' } } } },
  { name: 'invalid_number', inputSchema: { type: 'object', properties: { v: { type: 'number', 'x-mcp-header': 'N' } } } },
  { name: 'invalid_null', inputSchema: { type: 'object', properties: { v: { type: 'null', 'x-mcp-header': 'Nil' } } } },
  {
    name: 'invalid_duplicate',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
    },
  },
  { name: 'invalid_space', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'My Region' } } } },
  { name: 'invalid_colon', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } } } },
  { name: 'invalid_non_ascii', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'Région' } } } },
  { name: 'invalid_control', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'Region\t1' } } } },
  {
    name: 'invalid_in_items',
    inputSchema: { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } },
  },
  { name: 'invalid_in_oneof', inputSchema: { type: 'object', oneOf: [{ properties: { v: { type: 'string', 'x-mcp-header': 'V' } } }] } },
];

function decode(value: string | undefined): string | undefined {
  const match = value?.match(/^=\?base64\?(.*)\?=$/);
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : value;
}

describe('modern requests', () => {
  test('mirror the protocol version, method and name; carry Accept; never a session', async () => {
    const server = await startServer((request, res) =>
      json(res, 200, result(request, { resultType: 'complete', content: [] }), { 'mcp-session-id': 'ignored' }),
    );
    const { request } = await drive(new StreamableHttpClientTransport(server.url));
    await request(1, 'tools/call', modern({ name: 'get weather ☀', arguments: {} }));
    await request(2, 'resources/read', modern({ uri: 'file:///a b.txt' }));
    await request(3, 'prompts/get', modern({ name: 'review' }));
    await request(4, 'tools/list', modern());
    await request(5, 'tasks/get', modern({ taskId: 'task-7' }));
    const [call, read, prompt, list, task] = server.requests;
    expect(call!.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    });
    expect(call!.headers['mcp-name']).toMatch(/^=\?base64\?/);
    expect(decode(call!.headers['mcp-name'])).toBe('get weather ☀');
    expect(read!.headers['mcp-name']).toBe('file:///a b.txt');
    expect(prompt!.headers['mcp-name']).toBe('review');
    expect(list!.headers['mcp-name']).toBeUndefined();
    expect(task!.headers['mcp-name']).toBe('task-7');
    for (const recorded of server.requests) expect(recorded.headers['mcp-session-id']).toBeUndefined();
    expect(call!.json).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'get weather ☀', arguments: {} }) });
  });

  test('tools/list drops tools with invalid x-mcp-header annotations and mirrors the valid ones, encoded', async () => {
    const server = await startServer((request, res) => {
      if (methodOf(request) === 'tools/list')
        return json(res, 200, result(request, { tools: [CUSTOM_TOOL, ...INVALID_TOOLS, { name: 'plain' }] }));
      json(res, 200, result(request, { content: [] }));
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url));
    const listed = await driven.request(1, 'tools/list', modern());
    expect((listed.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(['test_custom_headers', 'plain']);
    expect(driven.errors.map((e) => (isLocalError(e) ? e.code : e.name))).toEqual(INVALID_TOOLS.map(() => 'PROTOCOL_VIOLATION'));
    expect(driven.errors[0]!.message).toContain('invalid_empty');
    const args = {
      region: 'us-west1',
      priority: 42,
      verbose: false,
      debug: true,
      empty_val: '',
      method_val: 'test-method',
      float_val: 3.14,
      non_ascii_val: 'Hello, 世界',
      whitespace_val: ' padded ',
      internal_space_val: 'us west 1',
      crlf_val: 'line1\r\nline2',
      tab_val: '\tindented',
      sentinel_val: '=?base64?literal?=',
      nested: { zone: null },
      query: 'SELECT 1',
    };
    await driven.request(2, 'tools/call', modern({ name: 'test_custom_headers', arguments: args }));
    const headers = server.requests[1]!.headers;
    expect(headers).toMatchObject({
      'mcp-param-region': 'us-west1',
      'mcp-param-priority': '42',
      'mcp-param-verbose': 'false',
      'mcp-param-debug': 'true',
      'mcp-param-emptyval': '',
      'mcp-param-method': 'test-method',
      'mcp-param-internalspace': 'us west 1',
      'mcp-param-nonascii': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'mcp-param-whitespace': '=?base64?IHBhZGRlZCA=?=',
      'mcp-param-sentinel': '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=',
      'mcp-method': 'tools/call',
    });
    expect(decode(headers['mcp-param-crlf'])).toBe('line1\r\nline2');
    expect(decode(headers['mcp-param-tab'])).toBe('\tindented');
    expect(headers['mcp-param-zone']).toBeUndefined();
    expect(headers['mcp-param-query']).toBeUndefined();
    expect(Object.keys(headers).filter((h) => h.startsWith('mcp-param-')).length).toBe(12);
    // A nested value is read at its exact path.
    await driven.request(3, 'tools/call', modern({ name: 'test_custom_headers', arguments: { nested: { zone: 'eu' } } }));
    expect(server.requests[2]!.headers['mcp-param-zone']).toBe('eu');
  });

  test('a request-scoped SSE stream, written byte by byte with CRLF, delivers the notifications then the response', async () => {
    const server = await startServer(async (request, res) => {
      sse(res, { 'x-accel-buffering': 'no' });
      const id = (request.json as { id: number }).id;
      const text =
        `: keep-alive\r\n` +
        `event: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } })}\r\n\r\n` +
        `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'é世😀' }] } })}\r\n\r\n`;
      for (const byte of Buffer.from(text)) {
        res.write(Buffer.of(byte));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url));
    const answer = await driven.request(5, 'tools/call', modern({ name: 'slow', arguments: {} }));
    expect(driven.messages[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 5, progress: 1 } });
    expect(answer.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'é世😀' }] });
  });

  test('cancellation aborts the POST (the server sees the stream close); notifications/cancelled is not posted', async () => {
    let closed: Promise<void> | undefined;
    const server = await startServer((_request, res, raw) => {
      sse(res);
      closed = new Promise((resolve) => raw.socket!.once('close', () => resolve()));
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url));
    const sent = driven.transport.send({ jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: modern({ notifications: {} }) });
    await server.next((r) => r.method === 'POST');
    driven.transport.cancelRequest(9);
    await expect(sent).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await closed;
    await driven.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
    await turns();
    expect(server.requests).toHaveLength(1);
  });

  test('a modern refusal is a JSON-RPC answer; other refusals are HTTP_ERROR until the server showed it is modern', async () => {
    let answer: (request: Recorded) => [number, unknown];
    const server = await startServer((request, res) => {
      const [status, body] = answer(request);
      json(res, status, body);
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url));
    const error =
      (code: number) =>
      (request: Recorded): [number, unknown] => [
        code === -32601 ? 404 : 400,
        { jsonrpc: '2.0', id: (request.json as { id: number }).id, error: { code, message: 'no', data: { supported: ['2026-07-28'] } } },
      ];
    for (const code of [-32022, -32020, -32021, -32601]) {
      answer = error(code);
      const d = await drive(new StreamableHttpClientTransport(server.url));
      expect((await d.request(1, 'server/discover', modern())).error).toMatchObject({ code });
      expect(d.transport.modernRefusal).toEqual({ status: code === -32601 ? 404 : 400, code });
    }
    answer = () => [400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }];
    const refused = await driven.request(2, 'server/discover', modern()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'HTTP_ERROR', details: { status: 400, error: { code: -32000 } } });
    expect(driven.transport.modernRefusal).toBeUndefined();
    answer = (request) => [200, result(request, { supportedVersions: ['2026-07-28'], capabilities: {} })];
    await driven.request(3, 'server/discover', modern());
    answer = (request) => [
      500,
      { jsonrpc: '2.0', id: (request.json as { id: number }).id, error: { code: -32603, message: 'Internal error' } },
    ];
    expect((await driven.request(4, 'tools/call', modern({ name: 'x' }))).error).toEqual({ code: -32603, message: 'Internal error' });
    answer = () => [502, 'bad gateway'];
    await expect(driven.request(5, 'tools/call', modern({ name: 'x' }))).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      details: { status: 502 },
    });
  });

  test('bad answers are clear local errors: content type, JSON, size, 202 for a request, a stream that ends early, no server', async () => {
    let mode = '';
    const server = await startServer((request, res) => {
      if (mode === 'html') return void (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<html>'));
      if (mode === 'garbage') return void (res.writeHead(200, { 'content-type': 'application/json' }), res.end('{"jsonrpc":'));
      if (mode === 'big') return json(res, 200, result(request, { text: 'x'.repeat(5000) }));
      if (mode === 'big-chunked') {
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
        return void res.end();
      }
      if (mode === 'big-event') return void (sse(res), res.write(`data: ${'x'.repeat(5000)}\n\n`), res.end());
      if (mode === '202') return void (res.writeHead(202), res.end());
      if (mode === 'early-end') return void (sse(res), res.write('id: 1\ndata: \n\n'), res.end());
      if (mode === 'bad-event') return void (sse(res), res.write('data: {nope\n\n'));
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url, { maxResponseBytes: 1024, maxEventBytes: 1024 }));
    const expectations: Array<[string, string]> = [
      ['html', 'UNSUPPORTED_CONTENT_TYPE'],
      ['garbage', 'PARSE_ERROR'],
      ['big', 'FRAME_TOO_LARGE'],
      ['big-chunked', 'FRAME_TOO_LARGE'],
      ['big-event', 'FRAME_TOO_LARGE'],
      ['202', 'PROTOCOL_VIOLATION'],
      ['early-end', 'CONNECTION_CLOSED'],
      ['bad-event', 'PARSE_ERROR'],
    ];
    let id = 10;
    for (const [m, code] of expectations) {
      mode = m;
      await expect(driven.request(id++, 'tools/list', modern()), m).rejects.toMatchObject({ code });
    }
    await server.close();
    await expect(driven.request(id++, 'tools/list', modern())).rejects.toMatchObject({ code: 'SEND_FAILED' });
    expect(driven.messages).toEqual([]);
  });

  test('custom headers and requestInit reach the server; the protocol headers win over custom ones', async () => {
    const server = await startServer((request, res) => json(res, 200, result(request, {})));
    const driven = await drive(
      new StreamableHttpClientTransport(server.url, {
        headers: { 'X-Tenant': 'acme', 'MCP-Protocol-Version': '1999-01-01', Accept: 'text/plain' },
        requestInit: { referrer: 'about:client', cache: 'no-store' },
      }),
    );
    await driven.request(1, 'tools/list', modern());
    expect(server.requests[0]!.headers).toMatchObject({
      'x-tenant': 'acme',
      'mcp-protocol-version': '2026-07-28',
      accept: 'application/json, text/event-stream',
    });
  });

  test('HeaderMismatch on a call: the tools are listed again (privately) and the call retried with the right headers', async () => {
    const server = await startServer((request, res) => {
      const method = methodOf(request);
      if (method === 'tools/list') {
        const cursor = (request.json as { params: { cursor?: string } }).params.cursor;
        if (cursor === undefined) return json(res, 200, result(request, { tools: [{ name: 'other' }], nextCursor: 'p2' }));
        return json(
          res,
          200,
          result(request, {
            tools: [{ name: 'sql', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } }],
          }),
        );
      }
      if (request.headers['mcp-param-region'] !== 'eu') {
        return json(res, 400, {
          jsonrpc: '2.0',
          id: (request.json as { id: number }).id,
          error: { code: -32020, message: 'Header mismatch' },
        });
      }
      json(res, 200, result(request, { content: [{ type: 'text', text: 'ok' }] }));
    });
    const driven = await drive(new StreamableHttpClientTransport(server.url));
    const answer = await driven.request(1, 'tools/call', modern({ name: 'sql', arguments: { region: 'eu' } }));
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(server.requests.map(methodOf)).toEqual(['tools/call', 'tools/list', 'tools/list', 'tools/call']);
    const lists = server.requests
      .filter((r) => methodOf(r) === 'tools/list')
      .map((r) => r.json as { id: unknown; params: { _meta: unknown } });
    for (const list of lists) {
      expect(typeof list.id).toBe('string');
      expect(list.params._meta).toEqual(modern()._meta);
    }
    expect(driven.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } }]);
    // A mismatch that a fresh listing cannot fix is the caller's error, once.
    const again = await driven.request(2, 'tools/call', modern({ name: 'sql', arguments: { region: 'us' } }));
    expect(again.error).toMatchObject({ code: -32020 });
  });

  test('the transport refuses to send when not started or closed, and closes once', async () => {
    const server = await startServer((request, res) => json(res, 200, result(request, {})));
    const transport = new StreamableHttpClientTransport(server.url);
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: modern() })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    });
    const driven = await drive(transport);
    await transport.close();
    await transport.close();
    expect(driven.closed).toBe(true);
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: modern() })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    });
    expect(server.requests).toEqual([]);
    expect(() => new StreamableHttpClientTransport('ftp://example.com/mcp')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
