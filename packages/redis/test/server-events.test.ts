// Server-wide events on RedisSessionBus, against a real redis-server: two "processes" (each its own connections,
// McpServer and HTTP handler) share the bus. A 2026-07-28 listen stream POSTed to one hears a list change and a
// resource update raised on the other, once each; a malformed event on the channel is ignored.
import { McpServer } from '@wiremcp/server';
import { createHttpHandler, type HttpHandler } from '@wiremcp/transport-http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectRedisState, type RedisState } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.test-util.js';

// The 2026-07-28 `_meta` keys (this package does not depend on @wiremcp/protocol, which names them).
const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

let redis: TestRedis;
const states: RedisState[] = [];
const handlers: HttpHandler[] = [];
const servers: McpServer[] = [];

function newServer(): McpServer {
  const server = new McpServer({ name: 'events', version: '1.0.0' });
  server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [] }));
  server.registerResource({ uri: 'demo://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  return server;
}

beforeAll(async () => {
  redis = await startTestRedis();
  for (let i = 0; i < 2; i += 1) {
    const state = await connectRedisState({ url: redis.url, prefix: 'events:', onError: () => {} });
    const server = newServer();
    states.push(state);
    servers.push(server);
    handlers.push(createHttpHandler(server, { ...state.handlerOptions }));
  }
  // The registrations above were announced on the bus (a microtask later): let those reach the other process
  // before a test opens a stream. Redis keeps one connection's messages in order, so a marker published after
  // them on the same connection arrives after them.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => {
    const stop = states[0]!.bus.subscribe((message) => {
      if (message.origin !== 'marker') return;
      stop();
      resolve();
    });
    void states[1]!.bus.publish({ kind: 'ended', origin: 'marker', sessionId: 'no-such-session' });
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  await Promise.all(states.map((state) => state.close()));
  await redis?.stop();
});

/** Reads SSE messages from a response body as they arrive. */
function sseMessages(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const received: Array<Record<string, unknown>> = [];
  let buffer = '';
  return {
    received,
    /** Reads until `wanted` accepts a message. */
    async until(wanted: (message: Record<string, unknown>) => boolean): Promise<void> {
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data === '') continue;
          const message = JSON.parse(data) as Record<string, unknown>;
          received.push(message);
          if (wanted(message)) return;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`the stream ended; got ${JSON.stringify(received)}`);
        buffer += chunk.value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

function listen(handler: HttpHandler, id: number, notifications: Record<string, unknown>): Promise<Response> {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications, _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} } },
  };
  return handler(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify(body),
    }),
  );
}

describe('server-wide events on the Redis bus', () => {
  test('a listen stream on one process hears what the other raised, once each; junk on the channel is ignored', async () => {
    const [a] = handlers as [HttpHandler, HttpHandler];
    const response = await listen(a, 5, { toolsListChanged: true, resourceSubscriptions: ['demo://a', 'demo://marker'] });
    expect(response.status).toBe(200);
    const stream = sseMessages(response);
    await stream.until((m) => m.method === 'notifications/subscriptions/acknowledged');

    // Junk first (the bus drops it, or the server does), then the real events, then a marker: in channel order.
    const channel = 'events:bus';
    for (const junk of [
      '{"kind":"event","origin":"elsewhere"}',
      '{"kind":"event","origin":"elsewhere","event":{"kind":"listChanged","list":"tools"}}',
      '{"kind":"event","origin":"elsewhere","event":{"id":"j1","kind":"resourceUpdated","uri":7}}',
    ]) {
      await states[1]!.client.publish(channel, junk);
    }
    const b = servers[1]!;
    b.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    b.notifyResourceUpdated('demo://a');
    b.notifyResourceUpdated('demo://elsewhere');
    // Published after the list change (which goes out a microtask after the registration).
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    b.notifyResourceUpdated('demo://marker');

    await stream.until((m) => (m.params as { uri?: string } | undefined)?.uri === 'demo://marker');
    const heard = stream.received.filter((m) => m.method !== 'notifications/subscriptions/acknowledged');
    expect(heard).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: { [MetaKey.subscriptionId]: 5 }, uri: 'demo://a' } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [MetaKey.subscriptionId]: 5 } } },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { _meta: { [MetaKey.subscriptionId]: 5 }, uri: 'demo://marker' },
      },
    ]);
    await stream.cancel();
  });
});
