import { McpServer } from '@wiremcp/server';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CLOCK_URI, LiveFeed, LOG_CAPACITY, LOG_URI } from './live.js';
import { createResourcesDemo } from './resources-demo.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A feed on a server whose update announcements are recorded. */
function feed(tickMs: number) {
  const server = new McpServer({ name: 'live-test', version: '1.0.0' });
  const updates: string[] = [];
  server.notifyResourceUpdated = (uri) => void updates.push(uri);
  return { live: new LiveFeed(server, { tickMs }), updates };
}

describe('the live feed', () => {
  test('the timer ticks the clock, announcing each tick, until stopped', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { live, updates } = feed(1000);
    live.start();
    vi.advanceTimersByTime(3000);
    expect(live.clock.tick).toBe(3);
    expect(updates).toEqual([CLOCK_URI, CLOCK_URI, CLOCK_URI]);
    expect(vi.getTimerCount()).toBe(1);
    live.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(live.clock.tick).toBe(3);
    expect(live.clockFreshMs).toBe(0);
  });

  test('the timer does not keep the process alive', () => {
    const { live } = feed(60_000);
    const spy = vi.spyOn(globalThis, 'setInterval');
    live.start();
    const timer = spy.mock.results[0]!.value as NodeJS.Timeout;
    spy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    live.stop();
  });

  test('closing the demo stops its clock', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const demo = createResourcesDemo({ tickMs: 100 });
    expect(vi.getTimerCount()).toBe(1);
    await demo.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('the log keeps its last lines, each one announced', () => {
    const { live, updates } = feed(0);
    for (let i = 1; i <= LOG_CAPACITY + 5; i++) live.record(`line ${i}`);
    expect(live.tail(3).map((line) => line.split(' ').slice(1).join(' '))).toEqual([
      `line ${LOG_CAPACITY + 3}`,
      `line ${LOG_CAPACITY + 4}`,
      `line ${LOG_CAPACITY + 5}`,
    ]);
    expect(live.tail(LOG_CAPACITY + 50)).toHaveLength(LOG_CAPACITY);
    expect(updates).toHaveLength(LOG_CAPACITY + 5);
    expect(new Set(updates)).toEqual(new Set([LOG_URI]));
  });
});
