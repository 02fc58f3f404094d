/**
 * The deprecated 2024-11-05 HTTP+SSE transport, opt-in on the same handler: the SSE stream announces the POST URL
 * (`endpoint` event), POSTs answer 202, every answer travels on the stream, and the session ends with the stream.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { SseReader, testHandler } from './http.test-util.js';

let handler: HttpHandler;
afterEach(async () => {
  await handler?.close(0);
});

const open = (path = '/sse') => new Request(`http://localhost${path}`, { headers: { accept: 'text/event-stream' } });
const send = (endpoint: string, body: unknown) =>
  new Request(new URL(endpoint, 'http://localhost'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
};

describe('2024-11-05 HTTP+SSE', () => {
  test('the endpoint event, then 202 for each POST and every answer on the stream', async () => {
    ({ handler } = testHandler({ legacySse: true }));
    const stream = new SseReader(await handler(open()));
    const endpoint = (await stream.next())!;
    expect(endpoint.event).toBe('endpoint');
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[A-Za-z0-9_-]{22}$/);
    const accepted = await handler(send(endpoint.data, initialize));
    expect(accepted.status).toBe(202);
    const answer = (await stream.next())!;
    expect(answer.event).toBe('message');
    expect(answer.message).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05', serverInfo: { name: 'http-test' } } });
    expect((await handler(send(endpoint.data, { jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    await handler(
      send(endpoint.data, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'old' } } }),
    );
    expect((await stream.next())!.message).toMatchObject({ id: 2, result: { content: [{ text: 'old' }] } });
    await stream.cancel();
  });

  test('refusals: no sessionId 400, unknown 404, a batch 400, broken JSON 400 -32700', async () => {
    ({ handler } = testHandler({ legacySse: true }));
    const stream = new SseReader(await handler(open()));
    const endpoint = (await stream.next())!.data;
    expect((await handler(send('/messages', initialize))).status).toBe(400);
    expect((await handler(send('/messages?sessionId=nope', initialize))).status).toBe(404);
    expect((await handler(send(endpoint, [initialize]))).status).toBe(400);
    const broken = await handler(
      new Request(new URL(endpoint, 'http://localhost'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    );
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    await stream.cancel();
  });

  test('the session ends with its stream', async () => {
    ({ handler } = testHandler({ legacySse: true }));
    const stream = new SseReader(await handler(open()));
    const endpoint = (await stream.next())!.data;
    expect(handler.stats.sessions).toBe(1);
    await stream.cancel();
    expect(handler.stats.sessions).toBe(0);
    expect((await handler(send(endpoint, initialize))).status).toBe(404);
  });

  test('a GET on the MCP endpoint without a session opens one too (clients falling back use the URL they were given)', async () => {
    ({ handler } = testHandler({ legacySse: { ssePath: '/events', messagesPath: '/rpc' } }));
    const stream = new SseReader(await handler(open('/mcp')));
    const endpoint = (await stream.next())!.data;
    expect(endpoint).toMatch(/^\/rpc\?sessionId=/);
    expect((await handler(send(endpoint, initialize))).status).toBe(202);
    expect((await stream.next())!.message).toMatchObject({ id: 1 });
    await stream.cancel();
    expect((await handler(open('/sse'))).status).toBe(404);
  });

  test('off by default: /sse is not served', async () => {
    ({ handler } = testHandler());
    expect((await handler(open())).status).toBe(404);
  });
});
