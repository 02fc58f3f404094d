/**
 * MCP over WebSocket against the official SDK v1, both ways: its `WebSocketClientTransport` (subprotocol `mcp`)
 * with its `Client` against wiremcp's server on `listenWebSocket`, and wiremcp's `McpClient` with its
 * `WebSocketClientTransport` against the SDK's `McpServer` behind a WebSocket server built on the SDK's `Transport`
 * interface (the SDK ships no WebSocket server).
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport as V1WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '@wiremcp/client';
import { McpServer } from '@wiremcp/server';
import { WebSocketClientTransport } from '@wiremcp/transport-websocket';
import { listenWebSocket } from '@wiremcp/transport-websocket/node';
import { afterEach, describe, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** The SDK v1 `Transport` over one `ws` connection: a text frame per message. */
class V1WsServerTransport implements V1Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  constructor(private readonly socket: WebSocket) {}
  start(): Promise<void> {
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) return void this.socket.close(1003);
      try {
        this.onmessage?.(JSON.parse(String(data)) as JSONRPCMessage);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    this.socket.on('close', () => this.onclose?.());
    return Promise.resolve();
  }
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve())));
  }
  close(): Promise<void> {
    this.socket.close();
    return Promise.resolve();
  }
}

describe('WebSocket interop with the official SDK v1', () => {
  test("the SDK's WebSocketClientTransport and Client against wiremcp's server", async () => {
    // Node 20 has no global WebSocket (the SDK's transport needs one); Node ≥ 22 has its own.
    (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
    const server = new McpServer({ name: 'wiremcp-ws', version: '1.0.0' });
    server.registerTool(
      { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
      (args: { a?: number; b?: number }) => ({ content: [{ type: 'text', text: String((args.a ?? 0) + (args.b ?? 0)) }] }),
    );
    const listening = await listenWebSocket(server);
    open.push(listening);
    const client = new V1Client({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new V1WebSocketClientTransport(listening.url));
    open.push({ close: () => client.close() });
    expect(client.getServerVersion()?.name).toBe('wiremcp-ws');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
  });

  test("wiremcp's McpClient against the SDK's McpServer on a WebSocket server built on the SDK's Transport", async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false) });
    await new Promise((resolve) => wss.once('listening', resolve));
    open.push({ close: () => new Promise<void>((resolve) => wss.close(() => resolve())) });
    wss.on('connection', (socket) => {
      const server = new V1McpServer({ name: 'sdk-v1-ws', version: '1.0.0' });
      server.registerTool('greet', { inputSchema: { name: z.string() } }, ({ name }) => ({
        content: [{ type: 'text', text: `hello ${name}` }],
      }));
      void server.connect(new V1WsServerTransport(socket));
    });
    const client = new McpClient({ name: 'wiremcp', version: '1.0.0' });
    open.push(client);
    await client.connect(new WebSocketClientTransport(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/`));
    expect(client.era).toBe('legacy');
    expect((await client.callTool('greet', { name: 'ana' })).content).toEqual([{ type: 'text', text: 'hello ana' }]);
  });
});
