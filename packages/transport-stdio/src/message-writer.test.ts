import { Writable } from 'node:stream';
import { LocalError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { MessageWriter, RESOLVED } from './message-writer.js';
import { nextTurn } from './child-processes.test-util.js';

/** A Writable that records every `write()` call and what reached the sink; `hold` delays completion. */
function recordingOutput(options: { highWaterMark?: number; hold?: boolean } = {}) {
  const calls: Array<string | Uint8Array> = [];
  const sunk: Buffer[] = [];
  const held: Array<() => void> = [];
  const output = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      sunk.push(chunk);
      if (options.hold) held.push(callback);
      else callback();
    },
  });
  const write = output.write.bind(output) as (chunk: string | Uint8Array) => boolean;
  output.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    calls.push(chunk);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof output.write;
  return {
    output,
    calls,
    text: () => Buffer.concat(sunk).toString('utf8'),
    release: () => held.splice(0).forEach((callback) => callback()),
  };
}

const message = (id: number) => ({ jsonrpc: '2.0', id, result: { text: `reply ${id} ñ` } });

describe('MessageWriter', () => {
  test('100 messages sent in one tick go out in ONE write, in order, NDJSON (by default, whatever their size)', async () => {
    const { output, calls, text } = recordingOutput();
    const writer = new MessageWriter(output, 'ndjson', () => undefined);
    const promises = [];
    for (let id = 0; id < 100; id++) promises.push(writer.send(message(id)));
    expect(calls).toHaveLength(0); // nothing written synchronously
    await Promise.all(promises);
    await nextTurn();
    expect(calls).toHaveLength(1);
    const lines = text().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(Array.from({ length: 100 }, (_, id) => message(id)));
  });

  test('a turn whose messages pass batchBytes is written in batches as it goes: each written once full, in order', async () => {
    const { output, calls, text } = recordingOutput();
    const batchBytes = 2048;
    const writer = new MessageWriter(output, 'ndjson', () => undefined, { batchBytes });
    const promises = [];
    const lineLength = (id: number) => JSON.stringify(message(id)).length + 1;
    for (let id = 0; id < 100; id++) promises.push(writer.send(message(id)));
    // ~4.5 KB queued in one turn: the first full batches left during the loop, before the turn ended.
    const duringTurn = calls.length;
    expect(duringTurn).toBeGreaterThanOrEqual(2);
    for (const promise of promises) expect(promise).toBe(RESOLVED);
    await nextTurn();
    expect(calls.length).toBe(duringTurn + 1); // the rest, at the end of the turn
    let id = 0;
    for (const [index, call] of calls.entries()) {
      const chunk = String(call);
      const lines = chunk.split('\n').slice(0, -1).length;
      id += lines;
      if (index === calls.length - 1) break;
      // Written as soon as it was full: at least batchBytes, and not yet full one message earlier.
      expect(chunk.length).toBeGreaterThanOrEqual(batchBytes);
      expect(chunk.length - lineLength(id - 1)).toBeLessThan(batchBytes);
    }
    expect(id).toBe(100);
    const lines = text().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(Array.from({ length: 100 }, (_, n) => message(n)));
  });

  test('batchBytes must be a positive number', () => {
    const { output } = recordingOutput();
    for (const batchBytes of [0, -1, Number.NaN]) {
      expect(() => new MessageWriter(output, 'ndjson', () => undefined, { batchBytes })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as Error,
      );
    }
  });

  test('a batch written from send() that fails rejects that send, and the failure is reported after send returned', async () => {
    const output = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const broken = new Error('the stream is gone');
    output.write = (() => {
      throw broken;
    }) as typeof output.write;
    const failures: Error[] = [];
    const writer = new MessageWriter(output, 'ndjson', (error) => failures.push(error), { batchBytes: 10 });
    const sent = writer.send(message(1));
    expect(failures).toEqual([]); // not from inside send()
    await expect(sent).rejects.toMatchObject({ code: 'SEND_FAILED', cause: broken });
    expect(failures).toEqual([broken]);
    await expect(writer.send(message(2))).rejects.toMatchObject({ code: 'SEND_FAILED' });
  });

  test('send() returns one shared resolved promise, not one per message', () => {
    const { output } = recordingOutput();
    const writer = new MessageWriter(output, 'ndjson', () => undefined);
    expect(writer.send(message(1))).toBe(RESOLVED);
    expect(writer.send(message(2))).toBe(RESOLVED);
  });

  test('messages sent from promise chains of the same turn are coalesced too', async () => {
    const { output, calls } = recordingOutput();
    const writer = new MessageWriter(output, 'ndjson', () => undefined);
    for (let id = 0; id < 20; id++)
      void Promise.resolve().then(async () => {
        await null;
        await writer.send(message(id));
      });
    await nextTurn();
    expect(calls).toHaveLength(1);
  });

  test('Content-Length frames count UTF-8 bytes, several frames in one write', async () => {
    const { output, calls, text } = recordingOutput();
    const writer = new MessageWriter(output, 'content-length', () => undefined);
    void writer.send(message(1));
    void writer.send(message(2));
    await nextTurn();
    expect(calls).toHaveLength(1);
    const one = JSON.stringify(message(1));
    const two = JSON.stringify(message(2));
    expect(text()).toBe(`Content-Length: ${Buffer.byteLength(one)}\r\n\r\n${one}Content-Length: ${Buffer.byteLength(two)}\r\n\r\n${two}`);
    expect(Buffer.byteLength(one)).toBe(one.length + 1); // 'ñ' is two bytes
  });

  test('unknown framing holds messages until setFraming, then frames them', async () => {
    const { output, calls, text } = recordingOutput();
    const writer = new MessageWriter(output, undefined, () => undefined);
    void writer.send(message(1));
    await nextTurn();
    expect(calls).toHaveLength(0);
    writer.setFraming('content-length');
    await nextTurn();
    expect(text()).toMatch(/^Content-Length: \d+\r\n\r\n\{/);
  });

  test('finish() writes held messages as NDJSON when the framing never became known', () => {
    const { output, text } = recordingOutput();
    const writer = new MessageWriter(output, undefined, () => undefined);
    void writer.send(message(1));
    writer.finish(false);
    expect(text()).toBe(JSON.stringify(message(1)) + '\n');
  });

  test('values JSON cannot carry are rejected with SEND_FAILED and nothing is written', async () => {
    const { output, calls } = recordingOutput();
    const writer = new MessageWriter(output, 'ndjson', () => undefined);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(writer.send(cyclic)).rejects.toMatchObject({ code: 'SEND_FAILED' });
    await expect(writer.send(undefined)).rejects.toMatchObject({ code: 'SEND_FAILED' });
    await expect(writer.send({ big: 1n })).rejects.toBeInstanceOf(LocalError);
    await nextTurn();
    expect(calls).toHaveLength(0);
  });

  test('backpressure: no write until drain, nothing lost, waiting senders resolve after the drain', async () => {
    const sink = recordingOutput({ highWaterMark: 16, hold: true });
    const writer = new MessageWriter(sink.output, 'ndjson', () => undefined);
    void writer.send(message(0));
    await nextTurn();
    expect(sink.calls).toHaveLength(1); // above the high-water mark: write() returned false
    let resolved = 0;
    const waiting = [writer.send(message(1)), writer.send(message(2))];
    expect(waiting[0]).toBe(waiting[1]); // one shared promise per backpressure episode
    for (const promise of waiting) void promise.then(() => resolved++);
    await nextTurn();
    expect(sink.calls).toHaveLength(1);
    expect(resolved).toBe(0);
    sink.release(); // the reader catches up: 'drain'
    await waiting[0];
    expect(sink.calls).toHaveLength(2);
    expect(resolved).toBe(2);
    sink.release();
    await nextTurn();
    const ids = sink
      .text()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual([0, 1, 2]);
  });

  test('full batches wait for the drain too: nothing is written while the output is blocked', async () => {
    const blocked = recordingOutput({ highWaterMark: 16, hold: true });
    const small = new MessageWriter(blocked.output, 'ndjson', () => undefined, { batchBytes: 40 });
    void small.send(message(10));
    expect(blocked.calls).toHaveLength(1);
    for (let id = 11; id < 15; id++) void small.send(message(id));
    expect(blocked.calls).toHaveLength(1);
    blocked.release();
    await nextTurn();
    expect(blocked.calls).toHaveLength(2);
  });

  test('finish() hands over what backpressure held back, and can end the output', async () => {
    const sink = recordingOutput({ highWaterMark: 16, hold: true });
    const writer = new MessageWriter(sink.output, 'ndjson', () => undefined);
    void writer.send(message(0));
    await nextTurn();
    const late = writer.send(message(1));
    writer.finish(true);
    await expect(late).resolves.toBeUndefined();
    sink.release();
    await nextTurn();
    sink.release();
    await nextTurn();
    expect(sink.text().trim().split('\n')).toHaveLength(2);
    expect(sink.output.writableEnded).toBe(true);
    await expect(writer.send(message(2))).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  test('an output error is reported once, rejects later sends, and never goes unhandled', async () => {
    const { output } = recordingOutput();
    const failures: Error[] = [];
    const writer = new MessageWriter(output, 'ndjson', (error) => failures.push(error));
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    output.emit('error', epipe);
    output.emit('error', epipe);
    expect(failures).toEqual([epipe]);
    await expect(writer.send(message(1))).rejects.toMatchObject({ code: 'SEND_FAILED' });
    writer.finish(false);
    // After finish the stream keeps one no-op listener: a late error is not an uncaught exception.
    expect(() => output.emit('error', epipe)).not.toThrow();
    expect(output.listenerCount('error')).toBe(1);
  });
});
