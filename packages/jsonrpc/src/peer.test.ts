import { ErrorCode, LocalError, RpcError } from '@wiremcp/protocol';
import { describe, expect, test, vi } from 'vitest';
import { createLinkedPair } from './linked-pair.js';
import { Peer } from './peer.js';
import { deferred, rawHarness } from './harness.test-util.js';

async function connectedPair() {
  const [a, b] = createLinkedPair();
  const client = new Peer({ onInternalError: () => {} });
  const server = new Peer({ onInternalError: () => {} });
  await server.connect(b);
  await client.connect(a);
  return { client, server };
}

describe('request/response', () => {
  test('a request gets the handler result, correlated by id', async () => {
    const { client, server } = await connectedPair();
    const gate = deferred();
    server.setRequestHandler('echo', (params) => ({ echoed: params?.text }));
    server.setRequestHandler('slow', async (params) => {
      await gate.promise;
      return { n: params?.n };
    });
    const slow = client.request('slow', { n: 1 });
    // The second request is answered while the first one is still in progress.
    expect(await client.request('echo', { text: 'hi' })).toEqual({ echoed: 'hi' });
    gate.resolve();
    expect(await slow).toEqual({ n: 1 });
    expect(client.pendingCount).toBe(0);
    expect(server.inflightCount).toBe(0);
  });

  test('a handler returning undefined answers an empty object', async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler('ping', () => undefined);
    await expect(client.request('ping', undefined)).resolves.toEqual({});
  });

  test('ids are distinct across concurrent requests', async () => {
    const h = await rawHarness();
    void h.peer.request('a', {}).catch(() => {});
    void h.peer.request('b', {}).catch(() => {});
    void h.peer.request('c', {}).catch(() => {});
    const messages = (await h.waitFor(3)) as Array<{ id: number }>;
    expect(new Set(messages.map((m) => m.id)).size).toBe(3);
    await h.peer.close();
  });

  test('notifications reach their handler and get no response', async () => {
    const h = await rawHarness();
    const seen: unknown[] = [];
    h.peer.setNotificationHandler('notifications/hello', (params) => {
      seen.push(params);
    });
    h.send({ jsonrpc: '2.0', method: 'notifications/hello', params: { x: 1 } });
    h.send({ jsonrpc: '2.0', method: 'notifications/unknown' });
    await h.settle();
    expect(seen).toEqual([{ x: 1 }]);
    expect(h.received).toEqual([]);
  });
});

describe('errors', () => {
  test('unknown method answers -32601', async () => {
    const h = await rawHarness();
    h.send({ jsonrpc: '2.0', id: 7, method: 'nope' });
    const [response] = await h.waitFor(1);
    expect(response).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: nope' } });
  });

  test('an RpcError thrown by a handler is sent as is', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('tools/call', () => {
      throw new RpcError(ErrorCode.InvalidParams, "Unknown tool: 'unkn_tool'", { name: 'unkn_tool' });
    });
    h.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'unkn_tool' } });
    const [response] = await h.waitFor(1);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: "Unknown tool: 'unkn_tool'", data: { name: 'unkn_tool' } },
    });
  });

  test('any other exception answers -32603 without leaking its text, and is reported locally', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('boom', async () => {
      throw new Error('database password is hunter2');
    });
    h.send({ jsonrpc: '2.0', id: 'x', method: 'boom' });
    const [response] = await h.waitFor(1);
    expect(response).toEqual({ jsonrpc: '2.0', id: 'x', error: { code: -32603, message: 'Internal error' } });
    expect(JSON.stringify(response)).not.toContain('hunter2');
    expect(String(h.internalErrors[0])).toContain('hunter2');
  });

  test.each([
    ['a number', 42, null, -32600],
    ['a string', '"hello"', null, -32600],
    ['null', 'null', null, -32600],
    ['missing jsonrpc', { id: 1, method: 'x' }, 1, -32600],
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 2, method: 'x' }, 2, -32600],
    ['non-string method', { jsonrpc: '2.0', id: 3, method: 5 }, 3, -32600],
    ['null id', { jsonrpc: '2.0', id: null, method: 'x' }, null, -32600],
    ['object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'x' }, null, -32600],
    ['array params', { jsonrpc: '2.0', id: 4, method: 'x', params: [1, 2] }, 4, -32602],
    ['string params', { jsonrpc: '2.0', id: 5, method: 'x', params: 'p' }, 5, -32600],
    ['no method, no result', { jsonrpc: '2.0', id: 6 }, 6, -32600],
  ])('an invalid envelope (%s) answers %s', async (_name, message, id, code) => {
    const h = await rawHarness();
    h.peer.setRequestHandler('x', () => ({}));
    h.send(message);
    const [response] = (await h.waitFor(1)) as Array<{ id: unknown; error: { code: number; message: string } }>;
    expect(response!.id).toBe(id);
    expect(response!.error.code).toBe(code);
    expect(response!.error.message.length).toBeGreaterThan(10);
  });

  test('unparsable input answers -32700 with id null and the peer keeps serving', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('ping', () => ({}));
    h.send('{"jsonrpc":"2.0","id":1,"method":');
    h.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const [first, second] = (await h.waitFor(2)) as Array<Record<string, unknown>>;
    expect(first).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(second).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  test('an oversized frame reported by the transport answers -32600 with id null', async () => {
    const h = await rawHarness();
    h.peer.transport!.onerror!(new LocalError('FRAME_TOO_LARGE', 'frame of 20000000 bytes exceeds the limit of 16777216'));
    const [response] = (await h.waitFor(1)) as Array<Record<string, unknown>>;
    expect(response).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test('a broken response is reported locally, not answered', async () => {
    const h = await rawHarness();
    const errors: Error[] = [];
    h.peer.onerror = (error) => errors.push(error);
    h.send({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } });
    h.send({ jsonrpc: '2.0', id: 99, result: {} });
    await h.settle();
    expect(h.received).toEqual([]);
    expect(errors.map((e) => (e as LocalError).code)).toEqual(['PROTOCOL_VIOLATION', 'PROTOCOL_VIOLATION']);
  });

  test('an error response rejects with an RpcError carrying code, message and data', async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler('fail', () => {
      throw new RpcError(-32002, 'Resource not found', { uri: 'file:///x' });
    });
    const error = await client.request('fail', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32002, message: 'Resource not found', data: { uri: 'file:///x' } });
  });

  test('a duplicate id of a request still in progress is refused', async () => {
    const h = await rawHarness();
    const gate = deferred();
    h.peer.setRequestHandler('wait', () => gate.promise.then(() => ({ done: true })));
    h.send({ jsonrpc: '2.0', id: 1, method: 'wait' });
    h.send({ jsonrpc: '2.0', id: 1, method: 'wait' });
    const [first] = (await h.waitFor(1)) as Array<Record<string, unknown>>;
    expect(first).toMatchObject({ id: 1, error: { code: -32600 } });
    gate.resolve();
    const [, second] = (await h.waitFor(2)) as Array<Record<string, unknown>>;
    expect(second).toEqual({ jsonrpc: '2.0', id: 1, result: { done: true } });
  });
});

describe('cancellation', () => {
  test('notifications/cancelled aborts the handler signal and suppresses the response', async () => {
    const h = await rawHarness();
    let aborted: unknown;
    h.peer.setRequestHandler(
      'long',
      (_params, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = ctx.signal.reason;
            resolve({ late: true });
          });
        }),
    );
    h.peer.setRequestHandler('ping', () => ({}));
    h.send({ jsonrpc: '2.0', id: 1, method: 'long' });
    await h.settle();
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user pressed stop' } });
    h.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await h.waitFor(1);
    await h.settle();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(aborted).toBeInstanceOf(LocalError);
    expect((aborted as LocalError).code).toBe('REQUEST_CANCELLED');
    expect((aborted as LocalError).message).toContain('user pressed stop');
    expect(h.peer.inflightCount).toBe(0);
  });

  test('after cancellation a handler sends nothing more for its request: no notification, no progress', async () => {
    const h = await rawHarness();
    let sent: Promise<unknown> | undefined;
    h.peer.setRequestHandler(
      'long',
      (_params, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sent = Promise.all([ctx.notify('notifications/message', { level: 'info', data: 'still working' }), ctx.sendProgress(1, 2)]);
            resolve({});
          });
        }),
    );
    h.peer.setRequestHandler('ping', () => ({}));
    h.send({ jsonrpc: '2.0', id: 1, method: 'long', params: { _meta: { progressToken: 't' } } });
    await h.settle();
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    h.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await h.waitFor(1);
    await sent;
    await h.settle();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
  });

  test('cancelling an unknown or finished request is ignored', async () => {
    const h = await rawHarness();
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12345 } });
    await h.settle();
    expect(h.received).toEqual([]);
  });

  test('aborting an outbound request sends notifications/cancelled and rejects REQUEST_CANCELLED', async () => {
    const h = await rawHarness();
    const controller = new AbortController();
    const promise = h.peer.request('long', {}, { signal: controller.signal });
    const [request] = (await h.waitFor(1)) as Array<{ id: number }>;
    controller.abort('no longer needed');
    await expect(promise).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    const [, cancelled] = await h.waitFor(2);
    expect(cancelled).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: request!.id, reason: 'Request cancelled: no longer needed' },
    });
    // A late response for the cancelled request is ignored.
    h.send({ jsonrpc: '2.0', id: request!.id, result: {} });
    await h.settle();
    expect(h.peer.pendingCount).toBe(0);
  });

  test('an already aborted signal rejects without sending', async () => {
    const h = await rawHarness();
    await expect(h.peer.request('x', {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await h.settle();
    expect(h.received).toEqual([]);
  });
});

describe('close', () => {
  test('closing rejects pending requests, aborts handlers and leaves no timer', async () => {
    vi.useFakeTimers();
    try {
      const { client, server } = await connectedPair();
      let handlerSignal: AbortSignal | undefined;
      server.setRequestHandler('hang', (_params, ctx) => {
        handlerSignal = ctx.signal;
        return new Promise(() => {});
      });
      const closed = vi.fn();
      client.onclose = closed;
      const pending = client.request('hang', {}, { timeoutMs: 10_000 });
      const second = client.request('hang', {}, { signal: new AbortController().signal });
      await vi.advanceTimersByTimeAsync(1);
      // One timer for all pending requests' timeouts (the second uses the default timeout).
      expect(vi.getTimerCount()).toBe(1);
      await client.close();
      await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await expect(second).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(handlerSignal?.aborted).toBe(true);
      expect(closed).toHaveBeenCalledTimes(1);
      expect(client.pendingCount).toBe(0);
      expect(server.inflightCount).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
      await client.close();
      expect(closed).toHaveBeenCalledTimes(1);
      await expect(client.request('x', {})).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    } finally {
      vi.useRealTimers();
    }
  });

  test('a peer can reconnect to a new transport after close', async () => {
    const { client } = await connectedPair();
    await client.close();
    const [a, b] = createLinkedPair();
    const server = new Peer();
    server.setRequestHandler('ping', () => ({ again: true }));
    await server.connect(b);
    await client.connect(a);
    await expect(client.request('ping', undefined)).resolves.toEqual({ again: true });
  });

  test('end of input: in-flight requests finish and are answered, then the transport closes', async () => {
    const h = await rawHarness();
    const gate = deferred();
    h.peer.setRequestHandler('slow', () => gate.promise.then(() => ({ done: true })));
    const closed = new Promise<void>((resolve) => {
      h.peer.onclose = resolve;
    });
    const outbound = h.peer.request('roots/list', {});
    h.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    await h.settle();
    (h.peer.transport as unknown as { endInput(): void }).endInput();
    await expect(outbound).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    // The input ended, but the request in progress still gets its answer before the transport closes.
    expect(h.peer.transport).toBeDefined();
    gate.resolve();
    await closed;
    expect(h.received).toContainEqual({ jsonrpc: '2.0', id: 1, result: { done: true } });
    expect(h.peer.inflightCount).toBe(0);
  });

  test('a transport that fails to start leaves the peer free to connect another one', async () => {
    const peer = new Peer();
    const [broken] = createLinkedPair();
    broken.start = () => Promise.reject(new LocalError('SERVER_EXITED', 'cannot spawn'));
    await expect(peer.connect(broken)).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(peer.transport).toBeUndefined();
    const [a, b] = createLinkedPair();
    const server = new Peer();
    server.setRequestHandler('ping', () => ({}));
    await server.connect(b);
    await peer.connect(a);
    await expect(peer.request('ping', undefined)).resolves.toEqual({});
  });

  test('connect twice is refused', async () => {
    const { client } = await connectedPair();
    await expect(client.connect(createLinkedPair()[0])).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
  });
});

describe('batches (2025-03-26)', () => {
  test('refused unless enabled', async () => {
    const h = await rawHarness();
    h.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    const [response] = (await h.waitFor(1)) as Array<Record<string, unknown>>;
    expect(response).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test('answered with one array, in which notifications have no entry', async () => {
    const h = await rawHarness();
    h.peer.acceptBatches = true;
    const notified: unknown[] = [];
    h.peer.setNotificationHandler('notifications/x', (p) => {
      notified.push(p);
    });
    h.peer.setRequestHandler('ping', () => ({}));
    const gate = deferred();
    h.peer.setRequestHandler('slow', () => gate.promise.then(() => ({ slow: true })));
    h.send([
      { jsonrpc: '2.0', id: 1, method: 'slow' },
      { jsonrpc: '2.0', method: 'notifications/x', params: { a: 1 } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'missing' },
      42,
    ]);
    await h.settle();
    // Nothing is sent until every request of the batch has its answer.
    expect(h.received).toEqual([]);
    gate.resolve();
    const [batch] = (await h.waitFor(1)) as Array<Array<Record<string, unknown>>>;
    expect(Array.isArray(batch)).toBe(true);
    expect(batch).toHaveLength(4);
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 1, result: { slow: true } });
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(batch).toContainEqual(expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32601 }) }));
    expect(batch).toContainEqual(expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }));
    expect(notified).toEqual([{ a: 1 }]);
  });

  test('an empty batch is an invalid request; a batch of notifications gets no answer', async () => {
    const h = await rawHarness();
    h.peer.acceptBatches = true;
    h.send([]);
    h.send([{ jsonrpc: '2.0', method: 'notifications/x' }]);
    await h.waitFor(1);
    await h.settle();
    expect(h.received).toHaveLength(1);
    expect(h.received[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test('responses inside a batch settle pending requests', async () => {
    const h = await rawHarness();
    const one = h.peer.request('a', {});
    const two = h.peer.request('b', {});
    const [r1, r2] = (await h.waitFor(2)) as Array<{ id: number }>;
    h.peer.acceptBatches = true;
    h.send([
      { jsonrpc: '2.0', id: r2!.id, result: { b: 1 } },
      { jsonrpc: '2.0', id: r1!.id, result: { a: 1 } },
    ]);
    await expect(one).resolves.toEqual({ a: 1 });
    await expect(two).resolves.toEqual({ b: 1 });
  });

  test('a cancelled request inside a batch is left out of the answer', async () => {
    const h = await rawHarness();
    h.peer.acceptBatches = true;
    h.peer.setRequestHandler('long', (_p, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => r({}))));
    h.peer.setRequestHandler('ping', () => ({}));
    h.send([
      { jsonrpc: '2.0', id: 1, method: 'long' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    await h.settle();
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    const [batch] = (await h.waitFor(1)) as Array<unknown[]>;
    expect(batch).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
  });
});

describe('request context', () => {
  test('exposes id, method, meta, info, and can notify and request back', async () => {
    const { client, server } = await connectedPair();
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///r' }] }));
    const notes: unknown[] = [];
    client.setNotificationHandler('notifications/message', (p) => {
      notes.push(p);
    });
    server.setRequestHandler('tools/call', async (params, ctx) => {
      expect(ctx.method).toBe('tools/call');
      expect(ctx.meta).toEqual({ trace: 'abc' });
      await ctx.notify('notifications/message', { level: 'info', data: 'working' });
      const roots = await ctx.request('roots/list', {});
      return { params, roots, id: ctx.id };
    });
    const result = (await client.request('tools/call', { name: 't', _meta: { trace: 'abc' } })) as Record<string, unknown>;
    expect(result.roots).toEqual({ roots: [{ uri: 'file:///r' }] });
    expect(typeof result.id).toBe('number');
    expect(notes).toEqual([{ level: 'info', data: 'working' }]);
  });

  test('the fallback handler serves methods without their own handler', async () => {
    const { client, server } = await connectedPair();
    server.setFallbackRequestHandler((method) => ({ method }));
    await expect(client.request('anything/at-all', {})).resolves.toEqual({ method: 'anything/at-all' });
  });
});
