// The Redis parts against a real redis-server: the EventStore and SessionStore contracts of
// @wiremcp/transport-http, the bus, the shared secret, and failing fast when Redis is unreachable.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectRedisState, RedisEventStore, type RedisState } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.test-util.js';
import type { BusMessage, SessionState } from '@wiremcp/transport-http';

let redis: TestRedis;
let state: RedisState;
let other: RedisState;

beforeAll(async () => {
  redis = await startTestRedis();
  state = await connectRedisState({ url: redis.url, prefix: 'test:', maxEventsPerStream: 4, onError: () => {} });
  other = await connectRedisState({ url: redis.url, prefix: 'test:', onError: () => {} });
}, 120_000);

afterAll(async () => {
  await state?.close();
  await other?.close();
  await redis?.stop();
});

describe('RedisEventStore', () => {
  test('replays what follows an event, in order, and knows when the stream ended', async () => {
    const store = state.eventStore;
    for (let seq = 0; seq < 3; seq += 1) await store.append({ sessionId: 's1', streamId: 'a', seq, data: seq === 0 ? '' : `{"n":${seq}}` });
    expect(await store.replay('s1', 'a', 0)).toEqual({
      events: [
        { seq: 1, data: '{"n":1}' },
        { seq: 2, data: '{"n":2}' },
      ],
      complete: false,
    });
    await store.complete('s1', 'a');
    expect(await store.replay('s1', 'a', 2)).toEqual({ events: [], complete: true });
    // Another session, another stream, an unknown stream: nothing.
    expect(await other.eventStore.replay('s2', 'a', 0)).toBeUndefined();
    expect(await store.replay('s1', 'b', 0)).toBeUndefined();
  });

  test('a capped stream refuses a replay with a gap instead of a partial one; an append twice is harmless', async () => {
    const store = state.eventStore;
    for (let seq = 0; seq < 8; seq += 1) await store.append({ sessionId: 's3', streamId: 'x', seq, data: String(seq) });
    await store.append({ sessionId: 's3', streamId: 'x', seq: 7, data: '7' });
    expect(await store.replay('s3', 'x', 1)).toBeUndefined();
    expect((await store.replay('s3', 'x', 3))?.events.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    const ttl = await state.client.pttl('test:ev:s3:x');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  test('deleteSession forgets every stream of the session', async () => {
    const store = state.eventStore;
    await store.append({ sessionId: 's4', streamId: 'p', seq: 0, data: 'p' });
    await store.append({ sessionId: 's4', streamId: 'q', seq: 0, data: 'q' });
    await store.complete('s4', 'q');
    await other.eventStore.deleteSession('s4');
    expect(await store.replay('s4', 'p', -1)).toBeUndefined();
    expect(await store.replay('s4', 'q', -1)).toBeUndefined();
    expect(await state.client.keys('test:ev*:s4*')).toEqual([]);
  });
});

describe('RedisEventStore.held', () => {
  test('a sample counts the events the deployment keeps; deleted and expired streams leave it', async () => {
    let now = 1_000_000;
    const options = { prefix: 'held:', ttlMs: 60_000, heldSampleMs: 0, now: () => now };
    const store = new RedisEventStore(state.client as never, options);
    const elsewhere = new RedisEventStore(state.client as never, options);
    expect(await store.sampleHeld()).toEqual({ events: 0 });
    for (let seq = 0; seq < 3; seq += 1) await store.append({ sessionId: 'h1', streamId: 'a', seq, data: 'x' });
    await elsewhere.append({ sessionId: 'h2', streamId: 'b', seq: 0, data: 'y' });
    expect(await store.sampleHeld()).toEqual({ events: 4 });
    // held() answers from the last sample, and starts the next one (heldSampleMs 0: at every read).
    expect(store.held()).toEqual({ events: 4 });
    await elsewhere.deleteSession('h2');
    expect(await store.sampleHeld()).toEqual({ events: 3 });
    now += 60_000; // past the stream's expiry: gone from the count even before Redis expired the key
    expect(await store.sampleHeld()).toEqual({ events: 0 });
    expect(await state.client.zcard('held:evidx')).toBe(0);
  });

  test('Redis unreachable: the point is left out, not a stale count', async () => {
    const broken = {
      pipeline: () => ({
        zremrangebyscore: () => {
          throw new Error('down');
        },
      }),
    };
    const store = new RedisEventStore(broken as never, { heldSampleMs: 0 });
    expect(await store.sampleHeld()).toBeUndefined();
    expect(store.held()).toBeUndefined();
  });
});

describe('RedisSessionStore', () => {
  const session: SessionState = {
    id: 'sess-1',
    protocolVersion: '2025-11-25',
    clientCapabilities: { sampling: {} },
    clientInfo: { name: 'c', version: '1' },
    logLevel: 'info',
    subscriptions: ['test://a'],
    initialized: true,
    createdAt: 1,
  };

  test('a state written by one process is read by another; touch extends it; delete is final', async () => {
    await state.sessionStore.set(session);
    expect(await other.sessionStore.get('sess-1')).toEqual(session);
    await state.client.pexpire('test:session:sess-1', 5000);
    await other.sessionStore.touch('sess-1');
    expect(await state.client.pttl('test:session:sess-1')).toBeGreaterThan(5000);
    await other.sessionStore.delete('sess-1');
    expect(await state.sessionStore.get('sess-1')).toBeUndefined();
    await state.sessionStore.set({ ...session, logLevel: 'debug' });
    expect(await other.sessionStore.get('sess-1')).toBeUndefined();
  });

  test('a record that is not valid JSON, or names another id, reads as no session', async () => {
    await state.client.set('test:session:bad', '{not json');
    await state.client.set('test:session:other', JSON.stringify({ ...session, id: 'else' }));
    expect(await state.sessionStore.get('bad')).toBeUndefined();
    expect(await state.sessionStore.get('other')).toBeUndefined();
  });
});

describe('the bus and shared configuration', () => {
  test('a message published by one process reaches every subscriber; malformed ones are ignored', async () => {
    const received = new Promise<BusMessage>((resolve) => {
      const stop = other.bus.subscribe((message) => {
        stop();
        resolve(message);
      });
    });
    await state.client.publish('test:bus', '{"kind":"deliver"}');
    const message: BusMessage = { kind: 'deliver', origin: 'p1', sessionId: 's', json: '{"jsonrpc":"2.0","id":"p1~n1","result":{}}' };
    await state.bus.publish(message);
    expect(await received).toEqual(message);
  });

  test("a `released` naming the holder's late events crosses whole; one whose `late` is not a list of ids is ignored", async () => {
    const received = new Promise<BusMessage>((resolve) => {
      const stop = other.bus.subscribe((message) => {
        stop();
        resolve(message);
      });
    });
    const released: BusMessage = {
      kind: 'released',
      origin: 'p1',
      target: 'p2',
      sessionId: 's',
      streamId: 'x',
      head: 4,
      late: ['e1', 'e2'],
    };
    // On the main channel, so that the process that did not join as `p2` hears it too.
    await state.client.publish('test:bus', JSON.stringify({ ...released, late: 'e1' }));
    await state.client.publish('test:bus', JSON.stringify({ ...released, late: [1] }));
    await state.client.publish('test:bus', JSON.stringify(released));
    expect(await received).toEqual(released);
  });

  test('sharedSecret gives every process the same random secret', async () => {
    const [a, b] = await Promise.all([state.sharedSecret('request-state'), other.sharedSecret('request-state')]);
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(await state.sharedSecret('other-secret')).not.toBe(a);
  });

  test('an unreachable Redis fails the connection in bounded time, naming the problem', async () => {
    const { freePort } = await import('../../../scripts/cluster/cluster.js');
    const port = await freePort();
    await expect(connectRedisState({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 500, onError: () => {} })).rejects.toThrow(
      /did not answer within 500 ms/,
    );
  });
});
