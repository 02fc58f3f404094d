/**
 * Server-wide events on the bus: three handlers (three processes, in one test) sharing a bus. A 2026-07-28 listen
 * stream POSTed to one hears the list changes and resource updates raised on another exactly once, with its own
 * subscription id and filter; the process that raised an event publishes it once and does not deliver it twice;
 * a closed handler stops relaying; without a bus nothing is published.
 */
import { MetaKey } from '@wiremcp/protocol';
import type { McpServer } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { modernPost, SseReader, testHandler, type TestEvent } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

function deployment(count: number) {
  const bus = new MemoryBus({ deferred: true });
  const made = Array.from({ length: count }, () => testHandler({ bus }));
  handlers = made.map((m) => m.handler);
  return { handlers: made.map((m) => m.handler), servers: made.map((m) => m.server), bus };
}

/** Opens a listen stream on `handler`; resolves once it is acknowledged. */
async function listen(handler: HttpHandler, id: number, notifications: Record<string, unknown>): Promise<SseReader> {
  const response = await handler(modernPost('subscriptions/listen', { notifications }, {}, id));
  expect(response.status).toBe(200);
  const stream = new SseReader(response);
  for (;;) {
    const event = await stream.next();
    if (event === undefined) throw new Error('the listen stream ended before its acknowledgement');
    if (event.message?.method === 'notifications/subscriptions/acknowledged') return stream;
  }
}

/** Reads until `count` notifications other than the acknowledgement arrived. */
async function notifications(stream: SseReader, count: number): Promise<TestEvent['message'][]> {
  const seen = () =>
    stream.events.map((e) => e.message).filter((m) => m?.method !== undefined && m.method !== 'notifications/subscriptions/acknowledged');
  while (seen().length < count) if ((await stream.next()) === undefined) break;
  return seen();
}

/** A round trip through every handler's bus subscription (everything published before has been delivered). */
async function drain(): Promise<void> {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

const eventsOn = (bus: MemoryBus) => bus.sent.filter((m) => m.kind === 'event');

describe('server-wide events between processes sharing a bus', () => {
  test('a listen stream on A hears what B raised, once, filtered and stamped as it asked', async () => {
    const { handlers: h, servers, bus } = deployment(3);
    const [a, , c] = h as [HttpHandler, HttpHandler, HttpHandler];
    const b = servers[1] as McpServer;
    await drain();
    const onA = await listen(a, 7, { toolsListChanged: true, resourceSubscriptions: ['x://é', 'x://marker'] });
    const onC = await listen(c, 8, { resourcesListChanged: true });
    const before = eventsOn(bus).length;

    b.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    b.notifyResourceUpdated('x://é');
    b.notifyResourceUpdated('x://other');
    b.notifyResourceListChanged();

    const heard = await notifications(onA, 2);
    expect(heard).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [MetaKey.subscriptionId]: 7 } },
    });
    expect(heard).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { _meta: { [MetaKey.subscriptionId]: 7 }, uri: 'x://é' },
    });
    expect(await notifications(onC, 1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [MetaKey.subscriptionId]: 8 } } },
    ]);
    // One message per event on the bus, from B: the two list changes and the two updates.
    expect(eventsOn(bus).length - before).toBe(4);
    await drain();
    // Nothing more arrives (no repeat): a marker raised on A afterwards is the next thing the stream carries.
    servers[0]!.notifyResourceUpdated('x://marker');
    const marked = (m: TestEvent['message']) => (m?.params as { uri?: string } | undefined)?.uri === 'x://marker';
    let all = await notifications(onA, 3);
    while (!all.some(marked)) all = await notifications(onA, all.length + 1);
    expect(all.map((m) => `${String(m?.method)} ${String((m?.params as { uri?: string }).uri ?? '')}`)).toEqual([
      ...heard.map((m) => `${String(m?.method)} ${String((m?.params as { uri?: string }).uri ?? '')}`),
      'notifications/resources/updated x://marker',
    ]);
    await onA.cancel();
    await onC.cancel();
  });

  test('a stream on the process that raised the event hears it once', async () => {
    const { handlers: h, servers, bus } = deployment(2);
    await drain();
    const stream = await listen(h[0]!, 1, { resourceSubscriptions: ['x://é'] });
    servers[0]!.notifyResourceUpdated('x://é');
    await drain();
    servers[1]!.notifyResourceUpdated('x://é');
    const heard = await notifications(stream, 2);
    expect(heard.map((m) => m?.method)).toEqual(['notifications/resources/updated', 'notifications/resources/updated']);
    await drain();
    expect(stream.events.filter((e) => e.message?.method === 'notifications/resources/updated')).toHaveLength(2);
    expect(eventsOn(bus).filter((m) => (m as { event: { kind: string } }).event.kind === 'resourceUpdated')).toHaveLength(2);
    await stream.cancel();
  });

  test('a closed handler relays nothing more; a handler without a bus publishes nothing', async () => {
    const { handlers: h, servers, bus } = deployment(2);
    await h[1]!.close(0);
    const before = eventsOn(bus).length;
    servers[1]!.notifyResourceUpdated('x://é');
    await drain();
    expect(eventsOn(bus).length).toBe(before);

    const alone = testHandler();
    handlers.push(alone.handler);
    const stream = await listen(alone.handler, 1, { resourceSubscriptions: ['x://é'] });
    alone.server.notifyResourceUpdated('x://é');
    expect((await notifications(stream, 1)).map((m) => m?.method)).toEqual(['notifications/resources/updated']);
    await stream.cancel();
  });
});
