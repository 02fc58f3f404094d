/**
 * Legacy Streamable HTTP sessions over the handler: where each server message goes (the POST that caused it, the
 * standalone GET stream, the queue), server→client requests answered by POST, resumable streams (priming events,
 * `retry`, `Last-Event-ID`, the server closing a stream to make the client poll), cancellation, and the limits.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { BOTH, ENDPOINT, initialize, post, sessionHeaders, SseReader, testHandler, type TestEvent } from './http.test-util.js';

let handler: HttpHandler;
afterEach(async () => {
  vi.useRealTimers();
  await handler?.close(0);
});

const call = (id: number | string, name: string, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

const get = (sessionId: string, lastEventId?: string, version = '2025-11-25') =>
  new Request(ENDPOINT, {
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': version,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  });

const methods = (events: TestEvent[]) =>
  events.map((event) => (event.data === '' ? 'priming' : (event.message?.method ?? `response ${String(event.message?.id)}`)));

describe('routing', () => {
  test('a request that streams: priming event, its notifications, then its response; the stream ends', async () => {
    ({ handler } = testHandler());
    const session = await initialize(handler);
    const response = await handler(post(call(1, 'progress', { progressToken: 't' }), sessionHeaders(session)));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const events = await new SseReader(response).all();
    expect(methods(events)).toEqual(['priming', 'notifications/progress', 'notifications/message', 'response 1']);
    expect(events[0]).toMatchObject({ retry: 1000, data: '' });
    const ids = events.map((event) => event.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => /^[a-z0-9]+_\d+$/.test(id ?? ''))).toBe(true);
  });

  test('before 2025-11-25 there is no priming event, but events have ids; without an event store, neither', async () => {
    ({ handler } = testHandler());
    const session = await initialize(handler, '2025-06-18');
    const events = await new SseReader(
      await handler(post(call(1, 'progress', { progressToken: 1 }), sessionHeaders(session, '2025-06-18'))),
    ).all();
    expect(methods(events)).toEqual(['notifications/progress', 'notifications/message', 'response 1']);
    expect(events.every((event) => event.id !== undefined)).toBe(true);
    await handler.close(0);
    ({ handler } = testHandler({ eventStore: false }));
    const plain = await initialize(handler);
    const bare = await new SseReader(await handler(post(call(1, 'progress', { progressToken: 1 }), sessionHeaders(plain)))).all();
    expect(methods(bare)).toEqual(['notifications/progress', 'notifications/message', 'response 1']);
    expect(bare.every((event) => event.id === undefined)).toBe(true);
  });

  test('a server→client request travels on the POST stream; its answer is POSTed (202) and the result follows', async () => {
    ({ handler } = testHandler());
    const session = await initialize(handler, '2025-11-25', { sampling: {} });
    const reader = new SseReader(await handler(post(call(1, 'sample'), sessionHeaders(session))));
    await reader.next(); // priming
    const request = (await reader.next())!.message!;
    expect(request).toMatchObject({ method: 'sampling/createMessage', id: expect.anything() });
    const answer = { jsonrpc: '2.0', id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'm' } };
    expect((await handler(post(answer, sessionHeaders(session)))).status).toBe(202);
    const rest = await reader.all();
    expect(rest.at(-1)?.message).toMatchObject({ id: 1, result: { content: [{ text: 'sampled: yes' }] } });
  });

  test('unrelated messages go to the standalone GET stream; a second GET is refused while it is open', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const session = await initialize(handler);
    const stream = new SseReader(await handler(get(session)));
    expect((await stream.next())?.data).toBe(''); // priming
    expect((await handler(get(session))).status).toBe(409);
    setup.server.registerTool({ name: 'added', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    expect((await stream.next())?.message?.method).toBe('notifications/tools/list_changed');
    setup.server.log('warning', 'server-wide');
    expect((await stream.next())?.message).toMatchObject({ method: 'notifications/message', params: { level: 'warning' } });
    await stream.cancel();
  });

  test('with no GET stream open, messages wait in a bounded queue for the next GET', async () => {
    const setup = testHandler({ maxQueuedEventsPerSession: 2, eventStore: false });
    handler = setup.handler;
    const session = await initialize(handler);
    for (const text of ['one', 'two', 'three']) setup.server.log('info', text);
    const stream = new SseReader(await handler(get(session)));
    const events = await stream.take(2);
    expect(events.map((event) => (event.message?.params as { data?: string }).data)).toEqual(['two', 'three']);
    await stream.cancel();
  });
});

describe('resumption', () => {
  test('the server closes the stream mid-call (polling); GET with Last-Event-ID replays what was missed, then the response', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const session = await initialize(handler);
    const first = new SseReader(await handler(post(call(1, 'poll', { progressToken: 'p' }), sessionHeaders(session))));
    const seen = await first.all(); // the server closed it
    expect(methods(seen)).toEqual(['priming', 'notifications/progress']);
    expect(seen[0]!.retry).toBe(1000);
    const resumed = new SseReader(await handler(get(session, seen.at(-1)!.id)));
    const missed = await resumed.next();
    expect(missed?.message).toMatchObject({ method: 'notifications/progress', params: { progress: 2 } });
    setup.probe.release.resolve();
    const rest = await resumed.all();
    expect(rest.at(-1)?.message).toMatchObject({ id: 1, result: { content: [{ text: 'after reconnection' }] } });
    expect(resumed.ended).toBe(true);
  });

  test('a client that drops the connection does not cancel (legacy); its response is replayed on resumption', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const session = await initialize(handler);
    const first = new SseReader(await handler(post(call(1, 'wait', { progressToken: 1 }), sessionHeaders(session))));
    const seen = await first.take(2);
    await first.cancel();
    expect(setup.probe.aborted).toBe(0);
    setup.probe.release.resolve();
    // The response is stored meanwhile: a resumption from the progress event gets it, and the stream ends.
    const events = await new SseReader(await handler(get(session, seen[1]!.id))).all();
    expect(events.at(-1)?.message).toMatchObject({ id: 1, result: { content: [{ text: 'released' }] } });
  });

  test('an event id that is unknown, or of another session: 400', async () => {
    ({ handler } = testHandler());
    const a = await initialize(handler);
    const b = await initialize(handler);
    const events = await new SseReader(await handler(post(call(1, 'progress', { progressToken: 1 }), sessionHeaders(a)))).all();
    expect((await handler(get(b, events[1]!.id))).status).toBe(400);
    expect((await handler(get(a, 'garbage'))).status).toBe(400);
    expect((await handler(get(a, events[1]!.id))).status).toBe(200);
  });
});

describe('cancellation and ending', () => {
  test('notifications/cancelled aborts the request and ends its POST (202, no response)', async () => {
    const setup = testHandler();
    handler = setup.handler;
    const session = await initialize(handler);
    const pending = handler(post(call(9, 'wait'), sessionHeaders(session)));
    await setup.probe.started.promise;
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'no longer needed' } };
    expect((await handler(post(cancel, sessionHeaders(session)))).status).toBe(202);
    expect(setup.probe.aborted).toBe(1);
    expect((await pending).status).toBe(202);
  });

  test('DELETE ends the session: its open streams end, and later requests get 404', async () => {
    ({ handler } = testHandler());
    const session = await initialize(handler);
    const stream = new SseReader(await handler(get(session)));
    await stream.next();
    expect((await handler(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': session } }))).status).toBe(200);
    await stream.all();
    expect(stream.ended).toBe(true);
    expect(handler.stats).toEqual({ sessions: 0, openStreams: 0 });
  });
});

describe('limits', () => {
  test('sessions beyond maxSessions: 503', async () => {
    ({ handler } = testHandler({ maxSessions: 2 }));
    await initialize(handler);
    await initialize(handler);
    const third = await handler(
      post(
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
        { 'content-type': 'application/json', accept: BOTH },
      ),
    );
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('5');
  });

  test('streams beyond maxStreamsPerSession: the GET gets 429, a POST answers as JSON', async () => {
    ({ handler } = testHandler({ maxStreamsPerSession: 1 }));
    const session = await initialize(handler);
    const stream = new SseReader(await handler(get(session)));
    await stream.next();
    const response = await handler(post(call(1, 'progress', { progressToken: 1 }), sessionHeaders(session)));
    expect(response.headers.get('content-type')).toBe('application/json');
    await stream.cancel();
    await new SseReader(await handler(get(session))).cancel();
    const busy = testHandler({ maxStreamsPerSession: 0 });
    try {
      expect((await busy.handler(get(await initialize(busy.handler)))).status).toBe(429);
    } finally {
      await busy.handler.close(0);
    }
  });

  test('an idle session expires (no request and no open stream for sessionIdleTimeoutMs); a busy one does not', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    ({ handler } = testHandler({ sessionIdleTimeoutMs: 1000 }));
    const idle = await initialize(handler);
    const busy = await initialize(handler);
    const stream = new SseReader(await handler(get(busy)));
    await stream.next();
    await vi.advanceTimersByTimeAsync(2500);
    expect((await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(idle)))).status).toBe(404);
    expect((await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(busy)))).status).toBe(200);
    expect(handler.stats.sessions).toBe(1);
    await stream.cancel();
  });
});
