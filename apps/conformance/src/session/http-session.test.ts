import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { HttpSession } from './http-session.js';

/** A tiny Streamable HTTP server on 127.0.0.1 that records request headers and answers by method. */
let server: Server;
let url: string;
const seen: Array<{ method: string; headers: IncomingMessage['headers']; body: string }> = [];
const open: ServerResponse[] = [];

beforeEach(async () => {
  seen.length = 0;
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, headers: request.headers, body });
      if (request.method === 'GET') return void response.writeHead(405).end();
      if (request.method === 'DELETE') return void response.writeHead(200).end();
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' });
        return void response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
          }),
        );
      }
      if (message.id === undefined) return void response.writeHead(202).end();
      if (message.method === 'never-ends') {
        // An SSE stream that sends one notification and then stays open forever.
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`,
        );
        open.push(response);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`id: 1\ndata:\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
});

afterEach(async () => {
  for (const response of open.splice(0)) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function until(session: HttpSession, count: number): Promise<void> {
  const deadline = Date.now() + 3000;
  while (session.log.events.length < count) {
    if (!(await session.log.waitBeyond(session.log.events.length, deadline))) throw new Error(`only ${session.log.events.length} events`);
  }
}

test('legacy: the session id and the negotiated version travel on every later request; DELETE ends the session', async () => {
  const session = new HttpSession(url, 'streamable-http');
  await session.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  await until(session, 1);
  expect(await session.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ status: 202 });
  await session.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
  await until(session, 3);
  expect(session.log.events.map((event) => event.kind)).toEqual(['message', 'http', 'message']);
  expect(session.log.events[2]).toMatchObject({ message: { id: 2, result: {} }, http: { status: 200, via: 'sse' } });
  const ping = seen.find((entry) => entry.body.includes('"ping"'))!;
  expect(ping.headers).toMatchObject({
    'mcp-session-id': 'session-1',
    'mcp-protocol-version': '2025-11-25',
    accept: 'application/json, text/event-stream',
  });
  expect(seen.find((entry) => entry.body.includes('"initialize"'))!.headers['mcp-protocol-version']).toBeUndefined();
  await session.close();
  expect(seen.some((entry) => entry.method === 'DELETE' && entry.headers['mcp-session-id'] === 'session-1')).toBe(true);
});

test('2026-07-28: MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror the body; headers can be removed or replaced', async () => {
  const session = new HttpSession(url, 'streamable-http');
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  await session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'conjugate', arguments: {}, _meta: meta } });
  await session.send(
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
    { headers: { 'Mcp-Method': 'other', 'mcp-protocol-version': null } },
  );
  await until(session, 2);
  expect(seen[0]!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'conjugate' });
  expect(seen[0]!.headers['mcp-session-id']).toBeUndefined();
  expect(seen[1]!.headers['mcp-method']).toBe('other');
  expect(seen[1]!.headers['mcp-protocol-version']).toBeUndefined();
  expect(seen[1]!.headers['mcp-name']).toBeUndefined();
  await session.close();
});

test('close() ends a response stream the server keeps open, and cancelling by transport closes one request', async () => {
  const session = new HttpSession(url, 'streamable-http');
  await session.send({ jsonrpc: '2.0', id: 7, method: 'never-ends', params: {} });
  await until(session, 1);
  expect(session.cancelByTransport(7)).toBe(true);
  expect(session.cancelByTransport(7)).toBe(false);
  await session.send({ jsonrpc: '2.0', id: 8, method: 'never-ends', params: {} });
  await until(session, 2);
  const started = Date.now();
  await session.close();
  expect(Date.now() - started).toBeLessThan(1500);
});
