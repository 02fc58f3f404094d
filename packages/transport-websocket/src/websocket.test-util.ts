/** Helpers of the WebSocket tests: a served McpServer, and a raw client that speaks the wire by hand. */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { McpServer } from '@wiremcp/server';
import { afterEach } from 'vitest';
import { listenWebSocket, type ListenWebSocketOptions, type ListeningWebSocket } from './node/index.js';

/** An McpServer with an `echo` tool and a `big` tool answering `size` characters, served over WebSocket. */
export async function serveEcho(options: ListenWebSocketOptions = {}): Promise<{ server: McpServer; listening: ListeningWebSocket }> {
  const server = new McpServer({ name: 'ws-test', version: '1.0.0' }, { onInternalError: () => {} });
  server.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    (args: { text: string }, ctx) => ({
      content: [
        { type: 'text', text: `${args.text}${ctx.transportInfo?.auth ? ` (auth ${JSON.stringify(ctx.transportInfo.auth)})` : ''}` },
      ],
    }),
  );
  server.registerTool(
    { name: 'big', inputSchema: { type: 'object', properties: { size: { type: 'number' } } } },
    (args: { size?: number }) => ({
      content: [{ type: 'text', text: 'x'.repeat(args.size ?? 1000) }],
    }),
  );
  const listening = await listenWebSocket(server, options);
  return { server, listening };
}

/** A raw TCP connection after a hand-made upgrade; `status` is the answer's status code. */
export interface RawSocket {
  readonly socket: Socket;
  readonly status: number;
  readonly head: string;
  /** Bytes received after the upgrade answer. */
  readonly received: Buffer[];
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>;
}

/** Opens a raw upgrade to `url` with `headers` (defaults: a valid MCP upgrade) and waits for the answer's head. */
export function rawUpgrade(url: URL, headers: Record<string, string | undefined> = {}): Promise<RawSocket> {
  const all: Record<string, string | undefined> = {
    host: url.host,
    upgrade: 'websocket',
    connection: 'Upgrade',
    'sec-websocket-key': randomBytes(16).toString('base64'),
    'sec-websocket-version': '13',
    'sec-websocket-protocol': 'mcp',
    ...headers,
  };
  const lines = Object.entries(all)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const received: Buffer[] = [];
    let buffered = Buffer.alloc(0);
    let answered = false;
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', (error) => (answered ? undefined : reject(error)));
    socket.on('data', (chunk: Buffer) => {
      if (answered) return void received.push(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      answered = true;
      const head = buffered.subarray(0, end).toString('latin1');
      if (buffered.length > end + 4) received.push(buffered.subarray(end + 4));
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), head, received, closed });
    });
    socket.write(`GET ${url.pathname} HTTP/1.1\r\n${lines}\r\n`);
  });
}

/** One masked client frame (RFC 6455): `opcode` 1 text, 2 binary, 0 continuation; `fin` false for a fragment. */
export function clientFrame(opcode: number, payload: Buffer, fin = true, announced = payload.length): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  let header: Buffer;
  if (announced < 126) header = Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | announced]);
  else if (announced < 65_536) header = Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, announced >> 8, announced & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = (fin ? 0x80 : 0) | opcode;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(announced), 2);
  }
  return Buffer.concat([header, mask, masked]);
}

/** The close code of the first close frame in `received` (server frames are unmasked), if any. */
export function closeCode(received: readonly Buffer[]): number | undefined {
  const all = Buffer.concat(received);
  let at = 0;
  while (at + 2 <= all.length) {
    const opcode = all[at]! & 0x0f;
    let length = all[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = all.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(all.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (opcode === 8) return length >= 2 ? all.readUInt16BE(start) : 1005;
    at = start + length;
  }
  return undefined;
}

/**
 * For a test file: `open` (things closed after each test, last first) and `served(options)`, an echo server over
 * WebSocket closed after the test.
 */
export function trackedServers(): {
  open: Array<{ close(): Promise<void> }>;
  served: (options?: ListenWebSocketOptions) => Promise<ListeningWebSocket>;
} {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  const served = async (options: ListenWebSocketOptions = {}): Promise<ListeningWebSocket> => {
    const { listening } = await serveEcho(options);
    open.push(listening);
    return listening;
  };
  return { open, served };
}
