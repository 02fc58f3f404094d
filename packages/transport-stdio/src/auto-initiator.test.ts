import { connect, createServer, type Server, type Socket } from 'node:net';
import { McpClient } from '@wiremcp/client';
import { McpServer } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import { StdioServerTransport } from './stdio-server-transport.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A connected pair of plain sockets on 127.0.0.1. */
async function socketPair(): Promise<[Socket, Socket]> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const dialed = connect({ host: '127.0.0.1', port });
  const pair: [Socket, Socket] = [dialed, await accepted];
  cleanups.push(() => {
    for (const socket of pair) socket.destroy();
    server.close();
  });
  return pair;
}

describe("framing 'auto' on a plain socket where both ends wait for the other to speak first", () => {
  test('the initiator (the side whose first message is a request) writes NDJSON at once; the other side detects it', async () => {
    const [clientSide, serverSide] = await socketPair();
    const server = new McpServer({ name: 'socket', version: '1.0.0' });
    server.registerTool({ name: 'hello', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
    await server.connect(new StdioServerTransport({ input: serverSide, output: serverSide, framing: 'auto' }));
    const client = new McpClient({ name: 'socket-client', version: '1.0.0' });
    const transport = new StdioServerTransport({ input: clientSide, output: clientSide, framing: 'auto' });
    await client.connect(transport);
    cleanups.push(() => void client.close());
    expect(transport.framing).toBe('ndjson');
    expect((await client.callTool('hello', {})).content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  test('a notification sent first is still held until the peer is heard (a server logging before any request)', async () => {
    const [near, far] = await socketPair();
    const transport = new StdioServerTransport({ input: near, output: near, framing: 'auto' });
    await transport.start();
    cleanups.push(() => void transport.close());
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'starting' } });
    expect(transport.framing).toBeUndefined();
    const received = new Promise<string>((resolve) => far.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    far.write(
      'Content-Length: 36\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"x"}'.replace(
        '36',
        String('{"jsonrpc":"2.0","id":1,"method":"x"}'.length),
      ),
    );
    expect(await received).toMatch(/^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","method":"notifications\/message"/);
  });
});
