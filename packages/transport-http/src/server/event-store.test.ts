import { describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';

const event = (seq: number, data = `m${seq}`, streamId = 's', sessionId = 'A') => ({ sessionId, streamId, seq, data });

describe('MemoryEventStore', () => {
  test('replays the events after a sequence number, in order, and says whether the stream ended', () => {
    const store = new MemoryEventStore();
    for (let seq = 0; seq < 4; seq++) store.append(event(seq));
    expect(store.replay('A', 's', 1)).toEqual({
      events: [
        { seq: 2, data: 'm2' },
        { seq: 3, data: 'm3' },
      ],
      complete: false,
    });
    store.complete('A', 's');
    expect(store.replay('A', 's', 3)).toEqual({ events: [], complete: true });
  });

  test('never replays another session’s stream, or an unknown one', () => {
    const store = new MemoryEventStore();
    store.append(event(0));
    expect(store.replay('B', 's', -1)).toBeUndefined();
    expect(store.replay('A', 'other', -1)).toBeUndefined();
  });

  test('keeps at most maxEventsPerStream; a replay from before the kept ones is refused, not given with a gap', () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 3 });
    for (let seq = 0; seq < 10; seq++) store.append(event(seq));
    expect(store.size).toBe(3);
    expect(store.replay('A', 's', 6)?.events.map((e) => e.seq)).toEqual([7, 8, 9]);
    expect(store.replay('A', 's', 5)).toBeUndefined();
  });

  test('evicts the least recently written streams beyond maxEvents and maxBytes', () => {
    const store = new MemoryEventStore({ maxEvents: 4 });
    store.append(event(0, 'a', 'old'));
    store.append(event(0, 'b', 'mid'));
    store.append(event(1, 'c', 'old')); // old is now the most recent
    store.append(event(0, 'd', 'new'));
    store.append(event(1, 'e', 'new'));
    expect(store.replay('A', 'mid', -1)).toBeUndefined();
    expect(store.replay('A', 'old', -1)?.events).toHaveLength(2);
    const bytes = new MemoryEventStore({ maxBytes: 10 });
    bytes.append(event(0, '123456', 'x'));
    bytes.append(event(0, '123456', 'y'));
    expect(bytes.replay('A', 'x', -1)).toBeUndefined();
    expect(bytes.replay('A', 'y', -1)?.events).toHaveLength(1);
  });

  test('forgets streams not written to for ttlMs, and every stream of a deleted session', () => {
    let now = 0;
    const store = new MemoryEventStore({ ttlMs: 1000, now: () => now });
    store.append(event(0, 'x', 'stale'));
    store.append(event(0, 'x', 'kept', 'B'));
    now = 900;
    store.append(event(1, 'y', 'kept', 'B'));
    now = 1500;
    expect(store.replay('A', 'stale', -1)).toBeUndefined();
    expect(store.replay('B', 'kept', -1)?.events).toHaveLength(2);
    store.deleteSession('B');
    expect(store.replay('B', 'kept', -1)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  test('held() counts the events and bytes kept, and drops what expired before counting', () => {
    let now = 0;
    const store = new MemoryEventStore({ ttlMs: 1000, now: () => now });
    expect(store.held()).toEqual({ events: 0, bytes: 0 });
    store.append(event(0, 'x', 'old'));
    now = 600;
    store.append(event(0, 'y', 'new'));
    store.append(event(1, 'zz', 'new'));
    expect(store.held()).toEqual({ events: 3, bytes: 4 });
    now = 1200; // the first stream expired, with no write since
    expect(store.held()).toEqual({ events: 2, bytes: 3 });
    store.deleteSession('A');
    expect(store.held()).toEqual({ events: 0, bytes: 0 });
  });

  test('an event appended twice is kept once; a jump in sequence starts the stream afresh', () => {
    const store = new MemoryEventStore();
    store.append(event(0));
    store.append(event(0, 'again'));
    store.append(event(5));
    expect(store.replay('A', 's', 4)?.events).toEqual([{ seq: 5, data: 'm5' }]);
    expect(store.replay('A', 's', 0)).toBeUndefined();
  });
});
