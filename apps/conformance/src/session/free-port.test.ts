import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

describe('freePort', () => {
  it('never hands out the same port twice in one process, sequentially or at once', async () => {
    const sequential: number[] = [];
    for (let i = 0; i < 100; i++) sequential.push(await freePort());
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => freePort()));
    const all = [...sequential, ...concurrent];
    expect(new Set(all).size).toBe(all.length);
    for (const port of all) expect(port).toBeGreaterThan(0);
  });
});
