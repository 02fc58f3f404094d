import { describe, expect, it } from 'vitest';
import { endReads } from './end-reads.js';

/** A stream the "server" keeps open: a read of it settles only when the reader is cancelled. */
function openStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
}

describe('endReads', () => {
  it('cancels a pending read and aborts the requests, then resolves once the read loop has ended', async () => {
    const reader = openStream().getReader();
    const controller = new AbortController();
    const steps: string[] = [];
    const loop = reader.read().then(({ done }) => steps.push(`read ended, done=${done}`));
    const ended = endReads({ readers: [reader], controllers: [controller], loops: [loop] });
    expect(controller.signal.aborted).toBe(true);
    await ended;
    expect(steps).toEqual(['read ended, done=true']);
  });

  it('does not wait past its bound for a loop that never settles, and never rejects', async () => {
    const failing = Promise.reject(new Error('the read failed'));
    await expect(endReads({ readers: [], controllers: [], loops: [new Promise(() => {}), failing] }, 20)).resolves.toBeUndefined();
  });
});
