/**
 * 2026-07-28 requests over the handler: JSON when nothing streams, a request-scoped SSE stream once something does,
 * `subscriptions/listen` streams with their acknowledgement, notifications and keep-alives, and cancellation by
 * closing the stream.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { json, modernPost, SseReader, testHandler } from './http.test-util.js';

let handler: HttpHandler;
afterEach(async () => {
  await handler?.close(0);
});

describe('answers', () => {
  test('JSON when nothing is streamed, with serverInfo and resultType stamped', async () => {
    ({ handler } = testHandler());
    const response = await handler(modernPost('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await json(response)).toMatchObject({
      id: 1,
      result: {
        resultType: 'complete',
        content: [{ type: 'text', text: 'hi' }],
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'http-test' } },
      },
    });
  });

  test('SSE once a notification is sent: progress and the requested log level, then the response, then the end', async () => {
    ({ handler } = testHandler());
    const response = await handler(
      modernPost('tools/call', {
        name: 'progress',
        arguments: {},
        _meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' },
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    const events = await new SseReader(response).all();
    expect(events.map((event) => event.message?.method ?? `response ${String(event.message?.id)}`)).toEqual([
      'notifications/progress',
      'notifications/message',
      'response 1',
    ]);
    expect(events.every((event) => event.id === undefined)).toBe(true); // 2026-07-28 streams are not resumable
  });

  test('no log message without a log level in _meta, so the answer stays JSON', async () => {
    ({ handler } = testHandler());
    const response = await handler(modernPost('tools/call', { name: 'progress', arguments: {} }));
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  test('a handler that throws inside dispatch is an internal error, not a crash', async () => {
    ({ handler } = testHandler());
    const errors: unknown[] = [];
    const broken = testHandler({ onError: (error) => errors.push(error) });
    broken.server.dispatch = () => Promise.reject(new Error('boom'));
    const response = await broken.handler(modernPost('tools/list'));
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(errors).toEqual([new Error('boom')]);
  });
});

describe('cancellation', () => {
  test('closing the SSE stream aborts the handler, and nothing more is sent', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const response = await handler(modernPost('tools/call', { name: 'wait', arguments: {}, _meta: { progressToken: 1 } }));
    const reader = new SseReader(response);
    expect((await reader.next())?.message?.method).toBe('notifications/progress');
    await setup.probe.started.promise;
    expect(setup.probe.aborted).toBe(0);
    await reader.cancel();
    expect(setup.probe.aborted).toBe(1);
    setup.probe.release.resolve();
    expect(handler.stats.openStreams).toBe(0);
  });

  test('a client that goes away before anything streamed aborts the handler', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const controller = new AbortController();
    const request = new Request(modernPost('tools/call', { name: 'wait', arguments: {} }), { signal: controller.signal });
    const answer = handler(request);
    await setup.probe.started.promise;
    controller.abort();
    const response = await answer;
    expect(setup.probe.aborted).toBe(1);
    expect(response.status).toBe(204);
  });
});

describe('subscriptions/listen', () => {
  const listen = (notifications: Record<string, unknown>, id: number | string = 7) =>
    modernPost('subscriptions/listen', { notifications }, {}, id);

  test('opens an SSE stream at once; the acknowledgement comes first; list changes follow, tagged; closing it ends the listener', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const response = await handler(listen({ toolsListChanged: true }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(response);
    const ack = await reader.next();
    expect(ack?.message).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 }, notifications: { toolsListChanged: true } },
    });
    expect(handler.stats.openStreams).toBe(1);
    setup.server.registerTool({ name: 'new_tool', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const changed = await reader.next();
    expect(changed?.message).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });
    await reader.cancel();
    expect(handler.stats.openStreams).toBe(0);
  });

  test('server.close() ends it gracefully: notifications/cancelled, then the response, then the end of the stream', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const reader = new SseReader(await handler(listen({ promptsListChanged: true }, 'L')));
    await reader.next();
    await setup.server.close();
    const rest = await reader.all();
    expect(rest.slice(1).map((event) => event.message?.method ?? 'response')).toEqual(['notifications/cancelled', 'response']);
    expect(rest[2]?.message).toMatchObject({ id: 'L', result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } });
  });

  test('keep-alive comments on a quiet stream', async () => {
    ({ handler } = testHandler({ keepAliveIntervalMs: 20 }));
    const reader = new SseReader(await handler(listen({ toolsListChanged: true })));
    await reader.next();
    expect(await reader.comment()).toBe(':');
    await reader.cancel();
  });

  test('no room for another stream: 503 with Retry-After', async () => {
    ({ handler } = testHandler({ maxOpenStreams: 1 }));
    const first = new SseReader(await handler(listen({ toolsListChanged: true }, 1)));
    await first.next();
    const second = await handler(listen({ toolsListChanged: true }, 2));
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('5');
    await first.cancel();
  });

  test('without room for a stream, request-scoped notifications are dropped and the answer is JSON', async () => {
    ({ handler } = testHandler({ maxOpenStreams: 0 }));
    const response = await handler(modernPost('tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 1 } }));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await json(response)).toMatchObject({ result: { content: [{ text: 'done' }] } });
  });
});

describe('what handlers see', () => {
  test('ctx.transportInfo has the request headers (lower-cased), no session', async () => {
    const setup = testHandler();
    handler = setup.handler;
    await handler(modernPost('tools/call', { name: 'whoami', arguments: {} }, { 'x-trace': 'abc' }));
    expect(setup.probe.info).toMatchObject({ headers: { 'x-trace': 'abc', 'mcp-method': 'tools/call' }, sessionId: undefined });
  });
});
