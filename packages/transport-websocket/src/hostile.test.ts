import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { MCP_SUBPROTOCOL, SocketTransport, type WebSocketLike } from './index.js';
import { listenWebSocket } from './node/index.js';
import { clientFrame, closeCode, rawUpgrade, trackedServers } from './websocket.test-util.js';

const { open, served } = trackedServers();

function connectWs(url: URL): Promise<WebSocket> {
  const ws = new WebSocket(url, [MCP_SUBPROTOCOL]);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

describe('hostile peers', () => {
  test('bad JSON answers -32700 and the connection keeps serving', async () => {
    const ws = await connectWs((await served()).url);
    ws.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await nextMessage(ws)).toMatchObject({ id: null, error: { code: -32700 } });
    ws.send(LIST);
    expect(await nextMessage(ws)).toMatchObject({ id: 2, result: {} });
    ws.close();
  });

  test('a binary frame closes the connection with 1003, and the server serves the next one', async () => {
    const listening = await served();
    const ws = await connectWs(listening.url);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(Buffer.from(LIST), { binary: true });
    expect(await closed).toBe(1003);
    const next = await connectWs(listening.url);
    next.send(LIST);
    expect(await nextMessage(next)).toMatchObject({ id: 2 });
    next.close();
  });

  test('a frame announcing 1 GB is refused from its header (1009), without waiting for or buffering its body', async () => {
    const listening = await served({ maxMessageBytes: 64 * 1024 });
    const raw = await rawUpgrade(listening.url);
    expect(raw.status).toBe(101);
    const before = process.memoryUsage().rss;
    raw.socket.write(clientFrame(1, Buffer.from('{"jsonrpc":"2.0"'), true, 1024 ** 3));
    await raw.closed;
    expect(closeCode(raw.received)).toBe(1009);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  test('a flood of fragments adding up past the cap is refused (1009)', async () => {
    const listening = await served({ maxMessageBytes: 64 * 1024 });
    const raw = await rawUpgrade(listening.url);
    raw.socket.write(clientFrame(1, Buffer.from('['), false));
    const chunk = Buffer.alloc(1024, 0x20);
    for (let i = 0; i < 200 && !raw.socket.destroyed; i += 1) raw.socket.write(clientFrame(0, chunk, false));
    await raw.closed;
    expect(closeCode(raw.received)).toBe(1009);
  });

  test('a text message over the cap from a client without ws (the browser API) is refused too', async () => {
    const listening = await served({ maxMessageBytes: 1000 });
    const ws = await connectWs(listening.url);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } }));
    expect(await closed).toBe(1009);
  });

  test('a peer that stops answering pings is cut off (dead-peer detection)', async () => {
    const listening = await served({ pingIntervalMs: 50 });
    const raw = await rawUpgrade(listening.url);
    expect(raw.status).toBe(101);
    // A raw socket never answers the server's pings with pongs.
    await raw.closed;
    expect(raw.received.some((chunk) => (chunk[0]! & 0x0f) === 9)).toBe(true);
  });

  test('a slow reader: sends are refused once maxQueuedBytes wait unsent, and the connection is closed (1008)', async () => {
    let transport: SocketTransport | undefined;
    const outcome = new Promise<unknown>((resolve) => {
      void listenWebSocket(
        {
          connect: async (t) => {
            transport = t as SocketTransport;
            await t.start();
            const big = {
              jsonrpc: '2.0' as const,
              method: 'notifications/message',
              params: { level: 'info', data: 'x'.repeat(256 * 1024) },
            };
            for (let i = 0; i < 2000; i += 1) {
              try {
                await t.send(big);
                await new Promise((next) => setImmediate(next));
              } catch (error) {
                return resolve(error);
              }
            }
            resolve('never refused');
          },
        },
        { maxQueuedBytes: 1024 * 1024 },
      ).then((listening) => {
        open.push(listening);
        void rawUpgrade(listening.url).then((raw) => {
          raw.socket.pause();
          open.push({ close: async () => void raw.socket.destroy() });
        });
      });
    });
    expect(await outcome).toMatchObject({ code: 'SEND_FAILED' });
    expect(transport!.closeReason?.message).toMatch(/1008/);
  });

  test('SocketTransport: send on a closed socket rejects NOT_CONNECTED; onclose fires once', async () => {
    const listeners: Record<string, (event: never) => void> = {};
    const fake = {
      readyState: 1,
      bufferedAmount: 0,
      protocol: 'mcp',
      send: () => {},
      close() {
        this.readyState = 3;
      },
      addEventListener: (type: string, listener: (event: never) => void) => (listeners[type] = listener),
    };
    const transport = new SocketTransport(fake as unknown as WebSocketLike);
    let closes = 0;
    transport.onclose = () => (closes += 1);
    await transport.start();
    await transport.close();
    await transport.close();
    (listeners.close as (event: { code: number; reason: string }) => void)({ code: 1000, reason: '' });
    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
