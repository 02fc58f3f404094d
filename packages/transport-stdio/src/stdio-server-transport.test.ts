import { PassThrough, Writable } from 'node:stream';
import { Peer } from '@wiremcp/jsonrpc';
import { LocalError } from '@wiremcp/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { gate, nextTurn, onCleanup, stopEverything, when } from './child-processes.test-util.js';
import { StdioServerTransport, type StdioServerTransportOptions } from './stdio-server-transport.js';

afterEach(stopEverything);

/**
 * A Peer with an `echo` handler served over a StdioServerTransport on in-memory streams. Its `slow` handler
 * signals `slowStarted` and answers once the test calls `finishSlow()`.
 */
async function serve(options: Partial<StdioServerTransportOptions> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const transport = new StdioServerTransport({ input, output, ...options });
  const peer = new Peer({ onInternalError: () => undefined });
  const slowStarted = gate();
  const slowFinished = gate();
  peer.setRequestHandler('echo', (params) => params ?? {});
  peer.setRequestHandler('slow', async () => {
    slowStarted.open();
    await slowFinished.promise;
    return { done: true };
  });
  let closes = 0;
  peer.onclose = () => closes++;
  await peer.connect(transport);
  onCleanup(() => transport.close());
  const text = () => Buffer.concat(chunks).toString('utf8');
  const lines = () =>
    text()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  /** Resolves once the output holds what `condition` wants. */
  const until = (condition: () => boolean, label: string) => when(output, 'data', condition, label);
  return {
    input,
    output,
    transport,
    peer,
    text,
    lines,
    until,
    closes: () => closes,
    slowStarted: slowStarted.promise,
    finishSlow: () => slowFinished.open(),
  };
}

const request = (id: number, method = 'echo', params: Record<string, unknown> = { id }) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

function contentLength(json: string): string {
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

describe('StdioServerTransport', () => {
  test('auto-detects NDJSON and answers in NDJSON', async () => {
    const s = await serve();
    s.input.write(request(1) + '\n');
    await s.until(() => s.lines().length === 1, 'reply');
    expect(s.lines()).toEqual([{ jsonrpc: '2.0', id: 1, result: { id: 1 } }]);
    expect(s.transport.framing).toBe('ndjson');
  });

  test('auto-detects Content-Length and answers in Content-Length', async () => {
    const s = await serve();
    s.input.write(contentLength(request(1, 'echo', { t: 'comió' })));
    const reply = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { t: 'comió' } });
    await s.until(() => s.text() === contentLength(reply), 'whole reply');
    expect(s.transport.framing).toBe('content-length');
  });

  test('forced framing: NDJSON input to a Content-Length server is a framing error, not a message', async () => {
    const s = await serve({ framing: 'content-length' });
    const errors: Error[] = [];
    s.peer.onerror = (error) => errors.push(error);
    s.input.write(request(1) + '\n');
    s.input.write(contentLength(request(2)));
    await s.until(() => s.text().includes('"id":2'), 'reply to the framed request');
    expect(errors.map((error) => (error as LocalError).code)).toContain('FRAMING_ERROR');
    expect(s.text()).toMatch(/^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":2/);
  });

  test('many requests in one chunk and one request split byte by byte', async () => {
    const s = await serve();
    s.input.write(Array.from({ length: 50 }, (_, i) => request(i)).join('\n') + '\n');
    const split = Buffer.from(request(99, 'echo', { t: 'ñandú 日本' }) + '\n');
    for (let i = 0; i < split.length; i++) s.input.write(split.subarray(i, i + 1));
    await s.until(() => s.lines().length === 51, '51 replies');
    expect(s.lines().map((line) => line.id)).toEqual([...Array.from({ length: 50 }, (_, i) => i), 99]);
    expect(s.lines()[50]).toEqual({ jsonrpc: '2.0', id: 99, result: { t: 'ñandú 日本' } });
  });

  test('malformed JSON → -32700, oversized → -32600, invalid UTF-8 → -32700, all with id null, and it keeps serving', async () => {
    const s = await serve({ maxFrameBytes: 200 });
    s.input.write('{"jsonrpc":"2.0","id":1,"method":\n');
    s.input.write(request(2) + '\n');
    s.input.write(request(3, 'echo', { pad: 'x'.repeat(300) }) + '\n');
    s.input.write(request(4) + '\n');
    s.input.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":5,"method":"echo","params":{"t":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}\n'),
      ]),
    );
    s.input.write(request(6) + '\n');
    await s.until(() => s.lines().length === 6, 'six replies');
    const replies = s.lines();
    expect(replies.map((reply) => [reply.id, (reply.error as { code?: number } | undefined)?.code ?? 'ok'])).toEqual([
      [null, -32700],
      [2, 'ok'],
      [null, -32600],
      [4, 'ok'],
      [null, -32700],
      [6, 'ok'],
    ]);
  });

  test('replies sent in the same turn are written with one write, or in batches of writeBatchBytes when set', async () => {
    const writesFor = async (writeBatchBytes: number | undefined) => {
      const input = new PassThrough();
      const writes: number[] = [];
      const output = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          writes.push(chunk.length);
          callback();
        },
      });
      const transport = new StdioServerTransport({ input, output, framing: 'ndjson', writeBatchBytes });
      await transport.start();
      onCleanup(() => transport.close());
      for (let id = 0; id < 100; id++) void transport.send({ jsonrpc: '2.0', id, result: {} });
      await nextTurn();
      return writes;
    };
    expect(await writesFor(undefined)).toHaveLength(1);
    expect(await writesFor(Infinity)).toHaveLength(1);
    const batches = await writesFor(1000);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    for (const size of batches.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(1000);
    expect(() => new StdioServerTransport({ input: new PassThrough(), output: new PassThrough(), writeBatchBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as Error,
    );
  });

  test('end of input calls onend and keeps output open; without onend it closes', async () => {
    const s = await serve();
    s.input.write(request(1, 'slow') + '\n');
    await s.slowStarted;
    s.input.end();
    await when(s.input, 'end', () => s.input.readableEnded, 'the end of input');
    // The engine's onend: finish the slow request, answer it, then close.
    expect(s.closes()).toBe(0);
    s.finishSlow();
    await s.transport.closed;
    expect(s.closes()).toBe(1);
    expect(s.lines()).toEqual([{ jsonrpc: '2.0', id: 1, result: { done: true } }]);

    const input = new PassThrough();
    const transport = new StdioServerTransport({ input, output: new PassThrough() });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    input.end('{"jsonrpc":"2.0","method":"last/line/without/newline"}');
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.closed;
    expect(closes).toBe(1);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'last/line/without/newline' }]);
  });

  test('close() flushes queued messages, is idempotent, fires onclose once, and can end the output', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const received: Buffer[] = [];
    output.on('data', (chunk: Buffer) => received.push(chunk));
    const transport = new StdioServerTransport({ input, output, framing: 'ndjson', endOutputOnClose: true });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    void transport.send({ jsonrpc: '2.0', method: 'notifications/one' });
    void transport.send({ jsonrpc: '2.0', method: 'notifications/two' });
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
    expect(closes).toBe(1);
    await when(output, 'end', () => output.readableEnded, 'the end of the output');
    expect(Buffer.concat(received).toString()).toBe(
      '{"jsonrpc":"2.0","method":"notifications/one"}\n{"jsonrpc":"2.0","method":"notifications/two"}\n',
    );
    expect(output.writableEnded).toBe(true);
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
    await expect(transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await expect(transport.start()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  test('start() twice rejects; send() before start() rejects', async () => {
    const transport = new StdioServerTransport({ input: new PassThrough(), output: new PassThrough() });
    onCleanup(() => transport.close());
    await expect(transport.send({ jsonrpc: '2.0', method: 'early' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
  });

  test('an EPIPE on the output closes the transport with a closeReason and no unhandled error', async () => {
    const input = new PassThrough();
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const transport = new StdioServerTransport({ input, output, framing: 'ndjson' });
    const peer = new Peer({ onInternalError: () => undefined });
    peer.setRequestHandler('echo', (params) => params ?? {});
    const pending = [];
    let closes = 0;
    peer.onclose = () => closes++;
    await peer.connect(transport);
    // A server→client request pending when the pipe breaks is rejected with the close reason.
    pending.push(peer.request('ping', {}).catch((error: unknown) => error));
    await transport.closed;
    expect(closes).toBe(1);
    expect(transport.closeReason).toBeInstanceOf(LocalError);
    expect(transport.closeReason).toMatchObject({ code: 'CONNECTION_CLOSED', message: expect.stringContaining('EPIPE') });
    expect(await pending[0]).toBe(transport.closeReason);
    // Input is no longer read, and later output errors are swallowed.
    expect(input.listenerCount('data')).toBe(0);
    expect(() => output.emit('error', new Error('late'))).not.toThrow();
  });

  test('messages sent before auto-detection wait for it and use the detected framing', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const transport = new StdioServerTransport({ input, output });
    onCleanup(() => transport.close());
    await transport.start();
    expect(transport.framing).toBeUndefined();
    void transport.send({ jsonrpc: '2.0', method: 'notifications/early' });
    await nextTurn();
    expect(chunks).toHaveLength(0);
    input.write('Content-Length: 2\r\n\r\n{}');
    await when(output, 'data', () => chunks.length > 0, 'the held message');
    expect(Buffer.concat(chunks).toString()).toBe(contentLength('{"jsonrpc":"2.0","method":"notifications/early"}'));
  });

  test('rejects an unknown framing', () => {
    expect(() => new StdioServerTransport({ input: new PassThrough(), output: new PassThrough(), framing: 'xml' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
