// What a served call leaves in the old generation. A short-lived object of a call dies in the young generation; one
// allocated straight into the old generation (V8 puts a `Map`'s replacement backing table next to the one it
// replaces, so a long-lived `Map` with an entry added and deleted per request makes a new old table at every delete)
// stays there, dead, until the next full collection: the old generation grows with every call and full collections
// come back under load. The client here is a raw socket writing prepared bytes, so that what grows is the server's.
import { connect, type Socket } from 'node:net';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import { testHandler } from '../server/http.test-util.js';
import { listen } from './listen.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major'; execution: 'sync' }) => void;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const oldSpace = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

/** One keep-alive connection sending prepared requests one at a time; resolves each with the whole response text. */
class RawConnection {
  readonly #socket: Socket;
  #pending = '';
  #waiting: ((text: string) => void) | undefined;

  constructor(port: number) {
    this.#socket = connect(port, '127.0.0.1');
    this.#socket.setEncoding('utf8');
    this.#socket.on('data', (chunk: string) => {
      this.#pending += chunk;
      const head = this.#pending.indexOf('\r\n\r\n');
      if (head === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(this.#pending.slice(0, head))?.[1] ?? 0);
      if (this.#pending.length < head + 4 + length) return;
      const text = this.#pending;
      this.#pending = '';
      this.#waiting?.(text);
    });
  }

  send(request: string): Promise<string> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#socket.write(request);
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}

function request(port: number, body: object, headers: Record<string, string>): string {
  const text = JSON.stringify(body);
  const lines = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(text)}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${text}`;
}

async function serve(): Promise<{ port: number; connection: RawConnection }> {
  const listening = await listen(testHandler().handler, { host: '127.0.0.1', port: 0 });
  cleanups.push(() => listening.close());
  const port = Number(listening.url.port);
  const connection = new RawConnection(port);
  cleanups.push(() => connection.close());
  return { port, connection };
}

/** Old-generation bytes per call over `calls` sequential calls, after warming up and a full collection. */
async function oldBytesPerCall(call: (i: number) => Promise<string>, calls: number): Promise<number> {
  for (let i = 0; i < 3000; i++) await call(i);
  gc({ type: 'major', execution: 'sync' });
  const before = oldSpace();
  for (let i = 3000; i < 3000 + calls; i++) await call(i);
  return (oldSpace() - before) / calls;
}

describe('the old generation under sequential calls', () => {
  test('a legacy session answers call after call without growing the old generation per call', async () => {
    const { port, connection } = await serve();
    const init = await connection.send(
      request(
        port,
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
        },
        {},
      ),
    );
    const sessionId = /mcp-session-id: ([^\r]+)/i.exec(init)![1]!;
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
    await connection.send(request(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    const calls = Array.from({ length: 16 }, (_, i) =>
      request(port, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, headers),
    );
    const first = await connection.send(calls[0]!);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toContain('"text":"hi"');
    // Ids repeat every 16 calls: each is answered before the next is sent, so an id is never reused while pending.
    const perCall = await oldBytesPerCall((i) => connection.send(calls[i % 16]!), 20_000);
    // A `Map` entry added and deleted per call grew it by about 160 bytes per call; young garbage grows it by none.
    expect(perCall).toBeLessThan(40);
  }, 120_000);

  test('the stateless path, the same way', async () => {
    const { port, connection } = await serve();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'old', version: '1' },
    };
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' };
    const calls = Array.from({ length: 16 }, (_, i) =>
      request(
        port,
        { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta } },
        headers,
      ),
    );
    expect(await connection.send(calls[0]!)).toContain('"text":"hi"');
    expect(await oldBytesPerCall((i) => connection.send(calls[i % 16]!), 20_000)).toBeLessThan(40);
  }, 120_000);
});
