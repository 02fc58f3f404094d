/**
 * A legacy stream resumed on another process than the one running it (two handlers sharing a session store, an
 * event store and a bus that can tell which process is alive): followed live there until its end; ended with an
 * error for the request still owed once the process running it died; a standalone stream taken over (also from a
 * process draining, every event once); a request of a session that ended on its process ends with an error too. And
 * a 2024-11-05 HTTP+SSE session: a message POSTed to the other process reaches the one holding the stream, until
 * that one died (then 404).
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { ENDPOINT, initialize, post, sessionHeaders, SseReader } from './http.test-util.js';
import { listenedOnFirst, LivenessBus, twoProcesses } from './bus.test-util.js';
import type { McpServer } from '@wiremcp/server';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

function pair() {
  const bus = new LivenessBus({ deferred: true });
  const made = twoProcesses(bus, { streamOwnerCheckMs: 20, legacySse: true });
  handlers = made.handlers;
  return { a: handlers[0]!, b: handlers[1]!, origins: made.origins, servers: made.servers, probes: made.probes, bus };
}

const get = (session: string, lastEventId: string) =>
  new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream', 'last-event-id': lastEventId } });
const waitCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait', arguments: {}, _meta: { progressToken: 'w' } },
});

describe('a request stream resumed on another process', () => {
  test('while its process runs it: followed live until its result, each event once', async () => {
    const { a, b, probes } = pair();
    const session = await initialize(a);
    const first = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    const seen = await first.take(2); // priming, progress
    await probes[0].started.promise;
    await first.cancel();
    const resumed = new SseReader(await b(get(session, seen.at(-1)!.id!)));
    probes[0].release.resolve();
    const rest = await resumed.all();
    expect(rest.map((event) => event.message?.id)).toEqual([1]);
    expect(rest[0]!.message).toMatchObject({ result: { content: [{ text: 'released' }] } });
  });

  test('once its process died: ended with an error saying so, which a later resumption replays', async () => {
    const { a, b, bus, origins, probes } = pair();
    const session = await initialize(a);
    const first = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    const seen = await first.take(2);
    await probes[0].started.promise;
    await first.cancel();
    bus.dead.add(origins[0]!);
    const rest = await new SseReader(await b(get(session, seen.at(-1)!.id!))).all();
    expect(rest.map((event) => event.message)).toEqual([
      { jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32603, data: { reason: 'server-process-lost' } }) },
    ]);
    const again = await new SseReader(await b(get(session, seen.at(-1)!.id!))).all();
    expect(again.map((event) => event.message)).toEqual(rest.map((event) => event.message));
  });

  test('a streamed request whose session ended on its process ends with an error, not silence', async () => {
    const { a, probes } = pair();
    const session = await initialize(a);
    const stream = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    await probes[0].started.promise;
    await a.close(0);
    const events = await stream.all();
    const messages = events.filter((event) => event.message !== undefined);
    expect(messages.at(-1)?.message).toMatchObject({ id: 1, error: { code: -32603, data: { reason: 'session-ended' } } });
    // A closing handler ends its streams with a last retry hint, so that clients reconnect (to another process).
    expect(events.at(-1)).toMatchObject({ retry: expect.any(Number) });
  });
});

describe('the standalone stream resumed on another process', () => {
  test('taken over at once, what its process stored replayed; live from here, also once that process died', async () => {
    const { a, b, servers, bus, origins } = pair();
    const session = await initialize(a);
    const listen = new SseReader(await a(new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream' } })));
    servers[0].notifyToolListChanged();
    const seen = await listen.take(2);
    await listen.cancel();
    servers[0].notifyResourceListChanged(); // raised while no connection carries it: stored by A
    const resumed = new SseReader(await b(get(session, seen.at(-1)!.id!)));
    /** The next event carrying a message (the taker's first event is a priming one, naming it the holder). */
    const nextMethod = async (): Promise<unknown> => {
      for (let event = await resumed.next(); event !== undefined; event = await resumed.next())
        if (event.message) return event.message.method;
      return undefined;
    };
    expect(await nextMethod()).toBe('notifications/resources/list_changed');
    servers[1].notifyToolListChanged(); // raised on B, the holder now
    expect(await nextMethod()).toBe('notifications/tools/list_changed');
    bus.dead.add(origins[0]!);
    servers[1].notifyResourceListChanged(); // A gone: nothing changes for B
    expect(await nextMethod()).toBe('notifications/resources/list_changed');
    const ids = [...seen, ...resumed.events].map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    await resumed.cancel();
  });
});

describe('the standalone stream handed over by a draining process', () => {
  test('every event raised before, during and after the hand-over is heard once', async () => {
    const { a, b, servers, bus, origins } = pair();
    const uri = 'x://é';
    const { headers, listen } = await listenedOnFirst(a, b, uri);
    const session = headers['mcp-session-id']!;
    let raised = 0;
    const raise = (server: McpServer): void => {
      raised += 1;
      server.notifyResourceUpdated(uri);
    };
    raise(servers[0]);
    raise(servers[1]); // on B: heard by A, which holds the stream
    await listen.take(3);
    // A drains: its client's stream ends (a retry hint), and the client resumes on B.
    const drained = a.close(5000);
    const before = await listen.all();
    raise(servers[1]); // after the stream ended, before the client came back
    raise(servers[1]);
    const lastId = before.filter((event) => event.id !== undefined).at(-1)!.id!;
    const resumed = new SseReader(await b(get(session, lastId)));
    raise(servers[1]); // while B takes the stream over
    await drained;
    bus.dead.add(origins[0]!); // A exits
    raise(servers[1]);
    // A last, different event marks the end (raised again until it arrives, bounded: without the hand-over, B only
    // holds the stream once it saw A die).
    let arrived = false;
    const last = (async () => {
      for (;;) {
        const event = await resumed.next();
        if (event === undefined || event.message?.method === 'notifications/tools/list_changed') return (arrived = true);
      }
    })();
    for (let turn = 0; turn < 200 && !arrived; turn += 1) {
      servers[1].notifyToolListChanged();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await last;
    const all = [...before, ...resumed.events];
    const updates = [...listen.events, ...resumed.events].filter((event) => event.message?.method === 'notifications/resources/updated');
    expect(updates.length, `${raised} raised`).toBe(raised);
    expect(resumed.events.filter((event) => event.message?.method === 'notifications/tools/list_changed')).toHaveLength(1);
    const ids = all.map((event) => event.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    await resumed.cancel();
  });
});

describe('a 2024-11-05 HTTP+SSE session', () => {
  test('a message POSTed to another process reaches the one holding the stream; once that one died, 404', async () => {
    const { a, b, bus, origins } = pair();
    const stream = new SseReader(await a(new Request('http://localhost/sse', { headers: { accept: 'text/event-stream' } })));
    const endpoint = (await stream.next())!.data;
    const send = (handler: HttpHandler, body: unknown) =>
      handler(
        new Request(new URL(endpoint, 'http://localhost'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
          body: JSON.stringify(body),
        }),
      );
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } };
    expect((await send(b, { jsonrpc: '2.0', id: 1, method: 'initialize', params: init })).status).toBe(202);
    expect((await stream.next())!.message).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
    expect((await send(b, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect(
      (await send(b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'via B' } } })).status,
    ).toBe(202);
    expect((await stream.next())!.message).toMatchObject({ id: 2, result: { content: [{ text: 'via B' }] } });
    // Credentials stay where they arrived.
    const handed = bus.sent.filter((message) => message.kind === 'deliver');
    expect(handed.length).toBe(3);
    expect(handed.every((message) => message.kind === 'deliver' && message.headers?.authorization === undefined)).toBe(true);
    bus.dead.add(origins[0]!);
    expect((await send(b, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
    await stream.cancel();
  });
});
