import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

describe('Deadlines', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  // A target here is the function to call when it expires.
  const make = (): Deadlines<() => void> => new Deadlines<() => void>(100, (fire) => fire(), { resolutionMs: 10, now: () => now });
  const advance = async (ms: number): Promise<void> => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  it('fires each deadline once, in order, after its duration', async () => {
    const deadlines = make();
    const fired: string[] = [];
    deadlines.add(() => fired.push('a'));
    now += 30;
    deadlines.add(() => fired.push('b'));
    await advance(70);
    expect(fired).toEqual(['a']);
    await advance(30);
    expect(fired).toEqual(['a', 'b']);
    await advance(500);
    expect(fired).toEqual(['a', 'b']);
    expect(deadlines.size).toBe(0);
  });

  it('never fires a cleared deadline, whether it was the head, the tail or in the middle', async () => {
    const deadlines = make();
    const fired: number[] = [];
    const handles = [0, 1, 2, 3, 4].map((n) => deadlines.add(() => fired.push(n)));
    handles[2]!.clear();
    handles[0]!.clear();
    handles[4]!.clear();
    expect(deadlines.size).toBe(2);
    await advance(200);
    expect(fired).toEqual([1, 3]);
  });

  it('treats a second clear, and a clear after firing, as no-ops', async () => {
    const deadlines = make();
    const fired: number[] = [];
    const first = deadlines.add(() => fired.push(1));
    first.clear();
    first.clear();
    const second = deadlines.add(() => fired.push(2));
    deadlines.add(() => fired.push(3));
    await advance(200);
    second.clear();
    expect(fired).toEqual([2, 3]);
    expect(deadlines.size).toBe(0);
  });

  it('keeps firing the others when one action throws', async () => {
    const deadlines = make();
    const fired: number[] = [];
    deadlines.add(() => {
      throw new Error('boom');
    });
    deadlines.add(() => fired.push(2));
    await advance(200);
    expect(fired).toEqual([2]);
  });

  it('stops its timer once a tick finds nothing, and clear() drops everything', async () => {
    const deadlines = make();
    const fired: number[] = [];
    deadlines.add(() => fired.push(1)).clear();
    expect(vi.getTimerCount()).toBe(1);
    await advance(10);
    expect(vi.getTimerCount()).toBe(0);
    deadlines.add(() => fired.push(2));
    const late = deadlines.add(() => fired.push(3));
    deadlines.clear();
    late.clear();
    expect(vi.getTimerCount()).toBe(0);
    expect(deadlines.size).toBe(0);
    await advance(500);
    expect(fired).toEqual([]);
  });

  it('stays empty under a long run of deadlines cleared in the order they were set', async () => {
    const deadlines = make();
    let fired = 0;
    for (let round = 0; round < 1000; round++) {
      const handles = [0, 1, 2, 3].map(() => deadlines.add(() => fired++));
      for (const handle of handles) handle.clear();
      now += 1;
    }
    expect(deadlines.size).toBe(0);
    await advance(500);
    expect(fired).toBe(0);
  });
});
