import { LocalError } from '@wiremcp/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { deferred } from './harness.test-util.js';
import { MessagePortTransport, type MessagePortLike } from './message-port-transport.js';
import { Peer } from './peer.js';

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A served peer on one port of a fresh channel, and the other port raw: what arrives there is recorded. */
async function servedChannel(options: { maxMessageBytes?: number } = {}) {
  const channel = new MessageChannel();
  closing.push(
    () => channel.port1.close(),
    () => channel.port2.close(),
  );
  const server = new Peer({ onInternalError: () => {} });
  server.setRequestHandler('echo', (params) => params ?? {});
  const transport = new MessagePortTransport(channel.port1, options);
  await server.connect(transport);
  const received: unknown[] = [];
  const next = (): Promise<unknown> =>
    new Promise((resolve) => {
      const wait = (): void => (received.length > 0 ? resolve(received.shift()) : void setImmediate(wait));
      wait();
    });
  channel.port2.addEventListener('message', (event) => received.push(event.data));
  channel.port2.start();
  return { server, transport, raw: channel.port2, next };
}

/** A port pair without Node's `close` event, as in browsers: only what is posted crosses. */
function browserLikePair(): [MessagePortLike, MessagePortLike] {
  const make = (): MessagePortLike & { other?: { deliver(data: unknown): void }; deliver(data: unknown): void } => {
    const listeners: Array<(event: { data: unknown }) => void> = [];
    let open = true;
    const port = {
      other: undefined as { deliver(data: unknown): void } | undefined,
      deliver: (data: unknown) => open && queueMicrotask(() => listeners.forEach((listener) => listener({ data }))),
      postMessage: (data: unknown) => port.other?.deliver(structuredClone(data)),
      addEventListener: (type: string, listener: (event: { data: unknown }) => void) =>
        void (type === 'message' && listeners.push(listener)),
      close: () => void (open = false),
    };
    return port as never;
  };
  const a = make();
  const b = make();
  a.other = b;
  b.other = a;
  return [a, b];
}

describe('MessagePortTransport', () => {
  test('requests and answers cross a MessageChannel as JSON text', async () => {
    const { raw, next } = await servedChannel();
    raw.postMessage(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'hi' } }));
    const answer = await next();
    expect(typeof answer).toBe('string');
    expect(JSON.parse(answer as string)).toEqual({ jsonrpc: '2.0', id: 1, result: { text: 'hi' } });
  });

  test('text that is not JSON, and a value that is not text, get -32700; the channel keeps serving', async () => {
    const { raw, next } = await servedChannel();
    raw.postMessage('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(JSON.parse((await next()) as string)).toMatchObject({ id: null, error: { code: -32700 } });
    raw.postMessage({ jsonrpc: '2.0', id: 2, method: 'echo' });
    const refused = JSON.parse((await next()) as string) as { id: null; error: { code: number; message: string } };
    expect(refused).toMatchObject({ id: null, error: { code: -32700 } });
    raw.postMessage(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'echo', params: { still: 'serving' } }));
    expect(JSON.parse((await next()) as string)).toEqual({ jsonrpc: '2.0', id: 3, result: { still: 'serving' } });
  });

  test('a message over maxMessageBytes gets -32600 without echoing it; the next one is served', async () => {
    const { raw, next } = await servedChannel({ maxMessageBytes: 1024 });
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'x'.repeat(5000) } });
    raw.postMessage(huge);
    const refused = (await next()) as string;
    expect(JSON.parse(refused)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(refused.length).toBeLessThan(400);
    raw.postMessage(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'echo', params: {} }));
    expect(JSON.parse((await next()) as string)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  test('closing one end closes the other where ports report nothing (browsers): requests in flight are rejected', async () => {
    const [a, b] = browserLikePair();
    const server = new Peer({ onInternalError: () => {} });
    const handling = deferred();
    server.setRequestHandler('wait', () => {
      handling.resolve();
      return new Promise(() => {});
    });
    const serverSide = new MessagePortTransport(b);
    await server.connect(serverSide);
    const client = new Peer({ onInternalError: () => {} });
    const clientSide = new MessagePortTransport(a);
    const closed = deferred();
    await client.connect(clientSide);
    clientSide.onclose = ((previous) => () => {
      previous?.();
      closed.resolve();
    })(clientSide.onclose);
    const pending = client.request('wait', {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    await handling.promise;
    await serverSide.close();
    await closed.promise;
    const error = await pending;
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('CONNECTION_CLOSED');
    await expect(clientSide.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  test("a Node port that the other side closes without a word ends the transport (Node's close event)", async () => {
    const { transport, raw } = await servedChannel();
    const closed = deferred();
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      closed.resolve();
    };
    raw.close();
    await closed.promise;
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  test('start twice is refused; close is idempotent; an unserializable message is SEND_FAILED', async () => {
    const [a] = browserLikePair();
    const transport = new MessagePortTransport(a);
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic.params = cyclic;
    await expect(transport.send(cyclic as never)).rejects.toMatchObject({ code: 'SEND_FAILED' });
    let closes = 0;
    transport.onclose = () => void (closes += 1);
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
  });
});
