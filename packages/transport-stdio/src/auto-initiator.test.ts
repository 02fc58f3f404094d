import { connect, createServer, type Server, type Socket } from 'node:net';
import { Peer } from '@wiremcp/jsonrpc';
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
    const server = new Peer({ onInternalError: () => undefined });
    server.setRequestHandler('echo', (params) => params ?? {});
    const serverTransport = new StdioServerTransport({ input: serverSide, output: serverSide, framing: 'auto' });
    await server.connect(serverTransport);
    const client = new Peer({ onInternalError: () => undefined });
    const transport = new StdioServerTransport({ input: clientSide, output: clientSide, framing: 'auto' });
    await client.connect(transport);
    cleanups.push(
      () => void client.close(),
      () => void server.close(),
    );
    expect(await client.request('echo', { text: 'hi' })).toEqual({ text: 'hi' });
    expect(transport.framing).toBe('ndjson');
    expect(serverTransport.framing).toBe('ndjson');
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
