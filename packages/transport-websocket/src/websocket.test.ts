import { McpClient } from '@wiremcp/client';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { WebSocketClientTransport } from './index.js';
import { rawUpgrade, trackedServers } from './websocket.test-util.js';

const { open, served } = trackedServers();

describe('McpClient ↔ McpServer over WebSocket', () => {
  test.each(['modern', 'legacy'] as const)('the %s era: a tool call answers, on the subprotocol mcp', async (era) => {
    const listening = await served();
    const client = new McpClient({ name: 'ws-client', version: '1.0.0' }, { era });
    open.push(client);
    await client.connect(new WebSocketClientTransport(listening.url));
    expect(client.era).toBe(era);
    const result = await client.callTool('echo', { text: 'hello' });
    expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  test('a bearer token checked at the upgrade: refused without it (401), its auth reaches the handler with it', async () => {
    const listening = await served({
      authenticate: (request) =>
        request.headers.authorization === 'Bearer good'
          ? { ok: true, auth: { subject: 'alice' } }
          : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' }, text: 'a bearer token is required' },
    });
    const refused = new McpClient({ name: 'c', version: '1' });
    await expect(
      refused.connect(new WebSocketClientTransport(listening.url, { headers: { authorization: 'Bearer bad' } })),
    ).rejects.toThrow(/could not connect|401/);
    const raw = await rawUpgrade(listening.url);
    expect(raw.status).toBe(401);
    expect(raw.head).toMatch(/www-authenticate: Bearer/i);
    raw.socket.destroy();
    const client = new McpClient({ name: 'c', version: '1' });
    open.push(client);
    await client.connect(new WebSocketClientTransport(listening.url, { headers: { authorization: 'Bearer good' } }));
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi (auth {"subject":"alice"})' }]);
  });

  test('a server that does not speak mcp is refused by the client', async () => {
    const { WebSocketServer } = await import('ws');
    const other = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => false });
    await new Promise((resolve) => other.once('listening', resolve));
    open.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) });
    const port = (other.address() as { port: number }).port;
    await expect(new WebSocketClientTransport(`ws://127.0.0.1:${port}/`).start()).rejects.toThrow(/subprotocol|could not connect/);
  });
});

describe('upgrade checks', () => {
  test('DNS rebinding: a foreign Host is refused on a loopback bind; a foreign Origin too', async () => {
    const listening = await served();
    const rebound = await rawUpgrade(listening.url, { host: `evil.example:${listening.url.port}` });
    expect(rebound.status).toBe(403);
    const origin = await rawUpgrade(listening.url, { origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    const loopbackOrigin = await rawUpgrade(listening.url, { origin: 'http://localhost:5173' });
    expect(loopbackOrigin.status).toBe(101);
    for (const raw of [rebound, origin, loopbackOrigin]) raw.socket.destroy();
  });

  test('no mcp subprotocol: 400; another path: 404; a plain GET: 426', async () => {
    const listening = await served();
    const noProtocol = await rawUpgrade(listening.url, { 'sec-websocket-protocol': undefined });
    expect(noProtocol.status).toBe(400);
    const elsewhere = await rawUpgrade(new URL('/other', listening.url));
    expect(elsewhere.status).toBe(404);
    for (const raw of [noProtocol, elsewhere]) raw.socket.destroy();
    const plain = await fetch(listening.url.href.replace('ws:', 'http:'));
    expect(plain.status).toBe(426);
  });

  test('more than maxConnections at once: 503', async () => {
    const listening = await served({ maxConnections: 1 });
    const first = new WebSocket(listening.url, ['mcp']);
    await new Promise((resolve) => first.once('open', resolve));
    const second = await rawUpgrade(listening.url);
    expect(second.status).toBe(503);
    second.socket.destroy();
    first.close();
  });
});
