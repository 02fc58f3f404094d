// McpServer.dispatch: one message served with no peer and no connection, as a stateless HTTP POST is.
import { MetaKey, type JsonObject, type RpcNotification, type RpcResponse } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { deferred } from './deferred.test-util.js';
import { rawClient } from './server.test-util.js';

const META = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: 'http-client', version: '1.0.0' },
};
const SERVER_INFO = { [MetaKey.serverInfo]: { name: 'stateless', version: '1.0.0' } };

function server(): McpServer {
  const s = new McpServer({ name: 'stateless', version: '1.0.0' });
  s.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({
      content: [{ type: 'text', text: args.text ?? '' }],
    }),
  );
  s.registerTool({ name: 'chatty', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    await ctx.sendProgress(1, 2, 'half');
    await ctx.log('info', 'working');
    await ctx.sendProgress(2, 2, 'done');
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  s.registerTool({ name: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `Hello ${String(answer.content?.name)}` }] };
  });
  s.registerTool({ name: 'broken', inputSchema: { type: 'object' } }, () => {
    throw new Error('not shown to the client');
  });
  return s;
}

function request(id: number, method: string, params: JsonObject = {}, meta: JsonObject = META) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

/** An exchange that records its notifications. */
function exchange(signal?: AbortSignal) {
  const sent: RpcNotification[] = [];
  return { sent, signal, notify: (message: RpcNotification) => void sent.push(message) };
}

describe('requests', () => {
  test('answers a 2026-07-28 request with its stamped result, and a notification with nothing', async () => {
    const s = server();
    const x = exchange();
    expect(await s.dispatch(request(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), x)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }], _meta: SERVER_INFO },
    });
    expect(await s.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, x)).toBeUndefined();
    expect(await s.dispatch({ jsonrpc: '2.0', id: 1, result: {} }, x)).toBeUndefined();
    expect(x.sent).toEqual([]);
  });

  test('sends progress and the requested log level through the exchange, in order, before the answer', async () => {
    const s = server();
    const x = exchange();
    const answer = await s.dispatch(
      request(2, 'tools/call', { name: 'chatty', arguments: {} }, { ...META, progressToken: 'p', [MetaKey.logLevel]: 'info' }),
      x,
    );
    expect(x.sent.map((m) => [m.method, m.params?.progress ?? m.params?.data])).toEqual([
      ['notifications/progress', 1],
      ['notifications/message', 'working'],
      ['notifications/progress', 2],
    ]);
    expect(answer).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'ok' }] } });
  });

  test('waits for the last notification the exchange is still taking before it answers', async () => {
    const s = server();
    const taken = deferred();
    const order: string[] = [];
    const answer = s
      .dispatch(request(3, 'tools/call', { name: 'chatty', arguments: {} }, { ...META, progressToken: 1 }), {
        notify: (message) => {
          order.push(message.method);
          return message.params?.progress === 2 ? taken.promise : undefined;
        },
      })
      .then((response) => order.push(`answer ${String(response?.id)}`));
    await Promise.resolve();
    expect(order).not.toContain('answer 3');
    taken.resolve();
    await answer;
    expect(order).toEqual(['notifications/progress', 'notifications/progress', 'answer 3']);
  });

  test('input-required rounds work across independent dispatches (the state travels with the client)', async () => {
    const s = server();
    const caps = { ...META, [MetaKey.clientCapabilities]: { elicitation: {} } };
    const first = (await s.dispatch(request(4, 'tools/call', { name: 'ask', arguments: {} }, caps), exchange())) as RpcResponse & {
      result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    };
    expect(first.result.resultType).toBe('input_required');
    expect(Object.keys(first.result.inputRequests)).toEqual(['elicit-0']);
    const retry = request(
      5,
      'tools/call',
      {
        name: 'ask',
        arguments: {},
        inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.result.requestState,
      },
      caps,
    );
    expect(await s.dispatch(retry, exchange())).toMatchObject({ id: 5, result: { content: [{ type: 'text', text: 'Hello Ada' }] } });
  });

  test('a handler failure is -32603 without its text; the text goes to onInternalError', async () => {
    const reported: unknown[] = [];
    const s = new McpServer({ name: 'stateless', version: '1.0.0' }, { onInternalError: (error) => reported.push(error) });
    s.setRequestHandler('custom/boom', () => {
      throw new Error('secret detail');
    });
    expect(await s.dispatch(request(6, 'custom/boom'), exchange())).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(reported).toEqual([new Error('secret detail')]);
  });

  test('a request cannot reach the client: elicit outside an input-capable method is refused', async () => {
    const s = server();
    s.setRequestHandler('custom/ask', async (_params, ctx) => {
      await ctx.elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } });
      return {};
    });
    const caps = { ...META, [MetaKey.clientCapabilities]: { elicitation: {} } };
    expect(await s.dispatch(request(7, 'custom/ask', {}, caps), exchange())).toMatchObject({ error: { code: -32600 } });
  });
});

describe('the same answers as over a connection', () => {
  const cases: Array<[string, unknown]> = [
    ['not an object', 'hello'],
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    ['method not a string', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }],
    ['unknown method', request(1, 'wiremcp/nothing')],
    ['removed method', request(1, 'ping')],
    ['missing _meta', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }],
    ['missing capabilities', request(1, 'tools/list', {}, { [MetaKey.protocolVersion]: '2026-07-28' })],
    ['unsupported version', request(1, 'tools/list', {}, { ...META, [MetaKey.protocolVersion]: '2030-01-01' })],
    ['bad log level', request(1, 'tools/list', {}, { ...META, [MetaKey.logLevel]: 'loud' })],
    ['missing client capability', request(1, 'tools/call', { name: 'ask', arguments: {} })],
    ['unknown tool', request(1, 'tools/call', { name: 'nope', arguments: {} })],
    ['legacy request without a session', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['legacy ping without a session', { jsonrpc: '2.0', id: 1, method: 'ping' }],
    ['a batch', [request(1, 'tools/list')]],
  ];

  test.each(cases)('%s', async (_name, message) => {
    const s = server();
    const client = await rawClient(s);
    await client.transport.send(message as never);
    const overConnection = await client.received((m) => (m as { id?: unknown }).id !== undefined);
    expect(await s.dispatch(message, exchange())).toEqual(overConnection);
  });

  test('initialize is -32022 naming the revisions served without a session', async () => {
    const answer = await server().dispatch(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
      exchange(),
    );
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: this endpoint speaks 2026-07-28 only (no initialize)',
        data: { supported: ['2026-07-28'], requested: '2025-11-25' },
      },
    });
  });
});

test('a server that speaks no 2026-07-28 revision says so to every dispatched request', async () => {
  const legacyOnly = new McpServer({ name: 'old', version: '1.0.0' }, { protocolVersions: ['2025-11-25'] });
  expect(
    await legacyOnly.dispatch({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, exchange()),
  ).toEqual({
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32022,
      message: 'Unsupported protocol version: this endpoint speaks no revision without a session',
      data: { supported: [], requested: '2025-11-25' },
    },
  });
  expect(await legacyOnly.dispatch(request(2, 'tools/list'), exchange())).toMatchObject({
    error: { code: -32022, data: { supported: ['2025-11-25'], requested: '2026-07-28' } },
  });
});

describe('cancellation', () => {
  test("aborting the signal aborts the handler's signal; the answer is undefined and nothing more is sent", async () => {
    const s = server();
    const started = deferred();
    const seen = deferred<unknown>();
    s.setRequestHandler('custom/wait', async (_params, ctx) => {
      started.resolve();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      seen.resolve(ctx.signal.reason);
      await ctx.log('error', 'too late').catch(() => {});
      return { late: true };
    });
    const controller = new AbortController();
    const x = exchange(controller.signal);
    const answer = s.dispatch(request(8, 'custom/wait', {}, { ...META, [MetaKey.logLevel]: 'debug' }), x);
    await started.promise;
    controller.abort('the client went away');
    await expect(answer).resolves.toBeUndefined();
    expect(await seen.promise).toBe('the client went away');
    expect(x.sent).toEqual([]);
  });

  test('a signal aborted before dispatch runs nothing', async () => {
    const s = server();
    let ran = false;
    s.setRequestHandler('custom/run', () => ((ran = true), {}));
    expect(await s.dispatch(request(9, 'custom/run'), exchange(AbortSignal.abort()))).toBeUndefined();
    expect(ran).toBe(false);
  });
});

describe('cancellation through `cancellable` (no AbortSignal)', () => {
  /** An exchange whose `signal` must never be read, and whose cancel function is handed back. */
  function cancellableExchange(cancelAt?: 'registration') {
    const sent: RpcNotification[] = [];
    const hooks: { cancel?: (reason: unknown) => void } = {};
    return {
      sent,
      hooks,
      get signal(): AbortSignal {
        throw new Error('signal read although cancellable was offered');
      },
      cancellable(cancel: (reason: unknown) => void) {
        hooks.cancel = cancel;
        if (cancelAt === 'registration') cancel('gone before it ran');
      },
      notify: (message: RpcNotification) => void sent.push(message),
    };
  }

  test("cancelling aborts the handler's signal; the answer is undefined and nothing more is sent", async () => {
    const s = server();
    const started = deferred();
    const seen = deferred<unknown>();
    s.setRequestHandler('custom/wait', async (_params, ctx) => {
      started.resolve();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      seen.resolve(ctx.signal.reason);
      await ctx.log('error', 'too late').catch(() => {});
      return { late: true };
    });
    const x = cancellableExchange();
    const answer = s.dispatch(request(10, 'custom/wait', {}, { ...META, [MetaKey.logLevel]: 'debug' }), x);
    await started.promise;
    x.hooks.cancel!('the client went away');
    await expect(answer).resolves.toBeUndefined();
    expect(await seen.promise).toBe('the client went away');
    expect(x.sent).toEqual([]);
  });

  test('cancelled while registering: the handler never runs', async () => {
    const s = server();
    let ran = false;
    s.setRequestHandler('custom/run', () => ((ran = true), {}));
    expect(await s.dispatch(request(11, 'custom/run'), cancellableExchange('registration'))).toBeUndefined();
    expect(ran).toBe(false);
  });

  test('cancelling after the answer changes nothing; an answer without cancellation is the same as without a hook', async () => {
    const s = server();
    const x = cancellableExchange();
    const answer = await s.dispatch(request(12, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), x);
    expect(answer).toEqual(await s.dispatch(request(12, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), exchange()));
    expect(answer).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
    expect(() => x.hooks.cancel!('late')).not.toThrow();
  });
});
