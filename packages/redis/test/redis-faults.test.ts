// The Redis parts when Redis fails, against a real redis-server: a hung Redis fails each command after the command
// timeout; a session change is announced on the bus in the same step as the change (so one Redis carries out late
// is still announced); after Redis restarted, the bus says messages may have been lost, and the shared secret is put
// back by the processes that knew it.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectRedisState, type RedisState } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.test-util.js';
import type { BusMessage, SessionState } from '@wiremcp/transport-http';

let redis: TestRedis;
let state: RedisState;
let other: RedisState;

beforeAll(async () => {
  redis = await startTestRedis();
  state = await connectRedisState({ url: redis.url, prefix: 'faults:', commandTimeoutMs: 300, onError: () => {} });
  other = await connectRedisState({ url: redis.url, prefix: 'faults:', commandTimeoutMs: 300, onError: () => {} });
}, 120_000);

afterAll(async () => {
  redis?.resume();
  await state?.close();
  await other?.close();
  await redis?.stop();
});

const session: SessionState = {
  id: 'f1',
  protocolVersion: '2025-11-25',
  clientCapabilities: {},
  subscriptions: ['test://a'],
  initialized: true,
  createdAt: 1,
};

/** The next `count` bus messages `other` hears. */
function heard(count: number): Promise<BusMessage[]> {
  const messages: BusMessage[] = [];
  return new Promise((resolve) => {
    const stop = other.bus.subscribe((message) => {
      messages.push(message);
      if (messages.length === count) {
        stop();
        resolve(messages);
      }
    });
  });
}

/** Resolves once `client` answers again (bounded). */
async function answering(target: RedisState): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await target.client.ping();
      return;
    } catch (error) {
      if (attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('a hung Redis', () => {
  test('every command fails after the command timeout, and works again once Redis answers', async () => {
    redis.pause();
    try {
      await expect(state.sessionStore.get('f1')).rejects.toThrow(/timed out/);
      await expect(state.eventStore.append({ sessionId: 'f1', streamId: 's', seq: 0, data: '' })).rejects.toThrow(/timed out/);
    } finally {
      redis.resume();
    }
    expect(await state.sessionStore.get('nothing')).toBeUndefined();
  });

  test('commandTimeoutMs must be a positive integer', async () => {
    await expect(connectRedisState({ url: redis.url, commandTimeoutMs: 0, onError: () => {} })).rejects.toThrow(/commandTimeoutMs/);
  });
});

/**
 * Runs `start` (which puts commands on the wire), then holds the process's only thread for `ms` — as a starved machine
 * does, giving the process no CPU that long. Redis answers meanwhile. Run from `setImmediate`, so that the event loop's
 * next step is a new turn: timers first (the commands' timeouts are due), then the socket — the order a starved
 * process meets them in.
 */
function whileBusy<T>(start: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<Promise<T>>((resolve) => {
    setImmediate(() => {
      const started = start();
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // Spinning: no timer and no I/O runs meanwhile.
      }
      resolve(started);
    });
  }).then((started) => started);
}

describe('a busy process, a healthy Redis', () => {
  test('commands answered while the process had no CPU for longer than their timeout succeed', async () => {
    const announced = heard(1);
    const [written, read] = await whileBusy(
      () => Promise.allSettled([state.sessionStore.set({ ...session, id: 'f4' }, 'p1'), state.sessionStore.get('f4')]),
      900,
    );
    expect(written).toEqual({ status: 'fulfilled', value: undefined });
    expect(read.status === 'fulfilled' ? read.value?.id : read.reason).toBe('f4');
    expect((await announced)[0]).toMatchObject({ kind: 'state', sessionId: 'f4' });
  });

  test('a pipeline (an event store append) answered while the process was busy succeeds', async () => {
    const [appended] = await whileBusy(
      () => Promise.allSettled([state.eventStore.append({ sessionId: 'f4', streamId: 'busy', seq: 0, data: 'x' })]),
      900,
    );
    expect(appended).toEqual({ status: 'fulfilled', value: undefined });
    expect((await state.eventStore.replay('f4', 'busy', -1))?.events.map((event) => event.data)).toEqual(['x']);
  });

  test('a command Redis does not answer still fails after the timeout, also when the process was busy', async () => {
    redis.pause();
    try {
      const [read] = await whileBusy(() => Promise.allSettled([state.sessionStore.get('f4')]), 900);
      expect(read.status === 'rejected' ? String(read.reason) : read.status).toMatch(/timed out/);
    } finally {
      redis.resume();
    }
  });
});

/** Resolves once Redis holds back at least one client's commands (a `CLIENT PAUSE`), asking on `admin` (bounded). */
async function heldBack(admin: Redis): Promise<void> {
  for (let attempt = 0; !/^blocked_clients:[1-9]/m.test(await admin.info('clients')); attempt += 1) {
    if (attempt > 500) throw new Error('Redis never held a command back');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the readiness PING', () => {
  test('answers while Redis holds back the commands in flight on the command connection (writes paused, as in a failover)', async () => {
    const admin = new Redis(redis.url);
    const announced = heard(20);
    let burst: Promise<unknown> | undefined;
    try {
      await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      // A burst of session writes: Redis holds them, and with them everything sent after them on that connection.
      burst = Promise.allSettled(Array.from({ length: 20 }, (_, i) => state.sessionStore.set({ ...session, id: `held${i}` }, 'p1')));
      await heldBack(admin);
      await expect(state.client.ping()).rejects.toThrow(/timed out/);
      await expect(state.ping()).resolves.toBeUndefined();
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      await burst;
      admin.disconnect();
    }
    // The held writes ran once Redis let them (their callers had been told "timed out"), and were announced.
    const ids = (await announced).map((message) => ('sessionId' in message ? message.sessionId : message.kind));
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `held${i}`)));
  });

  test('fails after the command timeout while Redis hangs, and answers again once it is back', async () => {
    redis.pause();
    try {
      await expect(state.ping()).rejects.toThrow(/timed out/);
    } finally {
      redis.resume();
    }
    await expect(state.ping()).resolves.toBeUndefined();
  });
});

describe('session changes are announced with the change', () => {
  test('set announces the state, delete announces the end, a deleted session is neither written nor announced', async () => {
    expect(state.sessionStore.announcesChanges).toBe(true);
    const messages = heard(2);
    await state.sessionStore.set(session, 'p1');
    await state.sessionStore.delete('f1', 'p1');
    await state.sessionStore.set(session, 'p1');
    expect(await messages).toEqual([
      { kind: 'state', origin: 'p1', sessionId: 'f1', state: session },
      { kind: 'ended', origin: 'p1', sessionId: 'f1' },
    ]);
    expect(await other.sessionStore.get('f1')).toBeUndefined();
  });

  test('a delete that timed out while Redis hung, then ran, is still announced', async () => {
    const messages = heard(2);
    await state.sessionStore.set({ ...session, id: 'f2' }, 'p1');
    redis.pause();
    try {
      await expect(state.sessionStore.delete('f2', 'p1')).rejects.toThrow(/timed out/);
    } finally {
      redis.resume();
    }
    expect((await messages)[1]).toEqual({ kind: 'ended', origin: 'p1', sessionId: 'f2' });
    expect(await other.sessionStore.get('f2')).toBeUndefined();
  });
});

describe('Redis restarted without its data', () => {
  test('the bus says messages may have been lost; the shared secret is put back as it was', async () => {
    const secret = await state.sharedSecret('request-state');
    const lost = new Promise<void>((resolve) => {
      const stop = other.bus.onMessagesLost(() => {
        stop();
        resolve();
      });
    });
    await redis.restart();
    await lost;
    await answering(state);
    await answering(other);
    // Both processes knew it: whichever reconnected first put it back; a process started now reads the same value.
    const later = await connectRedisState({ url: redis.url, prefix: 'faults:', onError: () => {} });
    try {
      expect(await later.sharedSecret('request-state')).toBe(secret);
    } finally {
      await later.close();
    }
  });
});

describe('which processes are alive', () => {
  test('a process that joined is alive until its connection closes; targeted messages reach it alone', async () => {
    const joiner = await connectRedisState({ url: redis.url, prefix: 'faults:', onError: () => {} });
    // A process whose own connection has not been lost (so it does not wait for others to reconnect).
    const watcher = await connectRedisState({ url: redis.url, prefix: 'faults:', onError: () => {} });
    try {
      await joiner.bus.join('p9');
      expect(await watcher.bus.alive('p9')).toBe(true);
      expect(await watcher.bus.alive('never-joined')).toBe(false);
      const received = new Promise<BusMessage>((resolve) => joiner.bus.subscribe(resolve));
      const message: BusMessage = { kind: 'follow', origin: 'p1', target: 'p9', sessionId: 's', streamId: 'x', after: 3 };
      await state.bus.publish(message);
      expect(await received).toEqual(message);
      await joiner.close();
      for (let attempt = 0; (await watcher.bus.alive('p9')) !== false; attempt += 1) {
        if (attempt > 100) throw new Error('p9 still counts as alive after its connection closed');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await joiner.close();
      await watcher.close();
    }
  });
});
