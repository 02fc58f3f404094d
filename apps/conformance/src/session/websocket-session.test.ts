import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SessionEvent } from './session.js';
import { WebSocketSession } from './websocket-session.js';

/**
 * A hostile WebSocket server on 127.0.0.1: it echoes requests as results, and misbehaves on command (a binary frame,
 * a text frame that is not JSON, a close with a code), so that the session's checks are seen to fire.
 */
let http: Server;
let wss: WebSocketServer;
let url: string;
let acceptProtocol: string | false = 'mcp';
const received: string[] = [];

beforeEach(async () => {
  received.length = 0;
  acceptProtocol = 'mcp';
  http = createServer((_request, response) => response.writeHead(426).end());
  wss = new WebSocketServer({ server: http, handleProtocols: () => acceptProtocol });
  wss.on('connection', (socket: WebSocket) => {
    socket.on('message', (data, isBinary) => {
      const text = Buffer.from(data as Buffer).toString('utf8');
      received.push(isBinary ? `binary:${text}` : text);
      if (text === 'binary please') return void socket.send(Buffer.from([1, 2, 3]), { binary: true });
      if (text === 'banner please') return void socket.send('server ready!');
      if (text === 'close please') return void socket.close(1009, 'too big');
      try {
        const message = JSON.parse(text) as { id?: unknown };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      } catch {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
});

afterEach(async () => {
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

async function until(session: WebSocketSession, count: number): Promise<SessionEvent[]> {
  const deadline = Date.now() + 3000;
  while (session.log.events.length < count) {
    if (!(await session.log.waitBeyond(session.log.events.length, deadline)))
      throw new Error(`only ${session.log.events.length} events: ${JSON.stringify(session.log.events)}`);
  }
  return session.log.events;
}

test('one message per text frame each way, with the mcp subprotocol; invalid JSON goes out as it is', async () => {
  const session = new WebSocketSession(url);
  try {
    await session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await session.sendPayload(new TextEncoder().encode('{"jsonrpc": "2.0", "id": 7,'));
    const events = await until(session, 2);
    expect(events.map((event) => event.kind)).toEqual(['message', 'message']);
    expect(events[0]).toMatchObject({ message: { id: 1, result: {} } });
    expect(events[1]).toMatchObject({ message: { id: null, error: { code: -32700 } } });
    expect(received).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc": "2.0", "id": 7,']);
  } finally {
    await session.close();
  }
});

test('a binary frame and a text frame that is not JSON are violations; a close is an exit with its code and reason', async () => {
  const session = new WebSocketSession(url);
  try {
    await session.sendPayload(new TextEncoder().encode('binary please'));
    await session.sendPayload(new TextEncoder().encode('banner please'));
    await session.sendPayload(new TextEncoder().encode('close please'));
    const events = await until(session, 3);
    expect(events[0]).toMatchObject({ kind: 'violation', message: expect.stringContaining('binary frame (3 bytes)') });
    expect(events[1]).toMatchObject({ kind: 'violation', message: expect.stringContaining('"server ready!"') });
    expect(events[2]).toMatchObject({ kind: 'exit', code: 1009, signal: 'too big' });
    // Sending on a closed connection neither throws nor hangs.
    await session.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
  } finally {
    await session.close();
  }
});

test('a server that does not speak the mcp subprotocol is a violation, and nothing is sent to it', async () => {
  acceptProtocol = false;
  const session = new WebSocketSession(url);
  try {
    await session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const events = await until(session, 1);
    expect(events[0]).toMatchObject({ kind: 'violation', message: expect.stringContaining('subprotocol') });
    expect(received).toEqual([]);
  } finally {
    await session.close();
  }
});

test('nothing listening: the failed connection is a violation, and sends and close return', async () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  http.closeAllConnections();
  await new Promise((resolve) => wss.close(resolve));
  await new Promise((resolve) => http.close(resolve));
  http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  wss = new WebSocketServer({ noServer: true });
  const session = new WebSocketSession(`ws://127.0.0.1:${port}/mcp`);
  try {
    await session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const events = await until(session, 1);
    expect(events[0]).toMatchObject({ kind: 'violation', message: expect.stringContaining('failed') });
  } finally {
    await session.close();
  }
});
