// A real server process (test/fixtures/echo-server.mjs: a Peer on createProcessStdioTransport), driven
// byte by byte through its stdin, with its raw stdout and stderr captured.
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { collect, exitOf, spawnFixture, stopEverything, when } from './child-processes.test-util.js';

afterEach(stopEverything);

const request = (id: number, method = 'echo', params: Record<string, unknown> = { id }) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

const contentLength = (json: string) => `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;

/** Splits NDJSON output into lines and asserts that every line is a JSON-RPC 2.0 message. */
function protocolLines(stdout: Buffer): Array<Record<string, unknown>> {
  const text = stdout.toString('utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      expect(message.jsonrpc).toBe('2.0');
      return message;
    });
}

/** Splits Content-Length output into frames, asserting that the stream is nothing but well-formed frames. */
function protocolFrames(stdout: Buffer): Array<Record<string, unknown>> {
  const frames: Array<Record<string, unknown>> = [];
  let at = 0;
  while (at < stdout.length) {
    const headerEnd = stdout.indexOf('\r\n\r\n', at);
    expect(headerEnd).toBeGreaterThan(at);
    const header = stdout.subarray(at, headerEnd).toString('latin1');
    const match = /^Content-Length: (\d+)$/.exec(header);
    expect(match, `header ${JSON.stringify(header)}`).not.toBeNull();
    const length = Number(match![1]);
    const body = stdout.subarray(headerEnd + 4, headerEnd + 4 + length);
    expect(body.length).toBe(length);
    frames.push(JSON.parse(body.toString('utf8')) as Record<string, unknown>);
    at = headerEnd + 4 + length;
  }
  return frames;
}

/** Writes `data` in pieces of `size` bytes, each handed to the pipe before the next one is written. */
async function writeInPieces(child: ChildProcess, data: Buffer, size: number): Promise<void> {
  for (let i = 0; i < data.length; i += size) {
    await new Promise<void>((resolve, reject) =>
      child.stdin!.write(data.subarray(i, i + size), (error) => (error ? reject(error) : resolve())),
    );
  }
}

function startServer(env: Record<string, string> = {}) {
  const child = spawnFixture('echo-server.mjs', { env });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  return { child, stdout, stderr };
}

describe('a stdio server process', () => {
  test('NDJSON: replies on stdout, nothing else there; logs on stderr; exits 0 after stdin closes', async () => {
    const { child, stdout, stderr } = startServer();
    child.stdin!.write(request(1) + '\n' + request(2, 'log', { text: 'hello from the handler' }) + '\n');
    await stdout.until((text) => text.split('\n').length === 3, 'two replies');
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(protocolLines(stdout.bytes())).toEqual([
      { jsonrpc: '2.0', id: 1, result: { id: 1 } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(stderr.text()).toContain('[echo-server] log: hello from the handler');
    expect(stderr.text()).toContain('[echo-server] transport closed');
  });

  test('Content-Length is auto-detected and answered in Content-Length', async () => {
    const { child, stdout } = startServer();
    child.stdin!.write(contentLength(request(1, 'echo', { t: 'comió 日本' })) + contentLength(request(2)));
    await stdout.until((text) => text.includes('"id":2'), 'two replies');
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(protocolFrames(stdout.bytes())).toEqual([
      { jsonrpc: '2.0', id: 1, result: { t: 'comió 日本' } },
      { jsonrpc: '2.0', id: 2, result: { id: 2 } },
    ]);
  });

  test('one message split over many writes, in both framings', async () => {
    for (const framing of ['ndjson', 'content-length'] as const) {
      const { child, stdout } = startServer();
      const json = request(7, 'echo', { t: 'ñandú', pad: 'x'.repeat(40) });
      const bytes = Buffer.from(framing === 'ndjson' ? json + '\n' : contentLength(json));
      await writeInPieces(child, bytes, 3);
      child.stdin!.end();
      expect(await exitOf(child)).toEqual({ code: 0, signal: null });
      const replies = framing === 'ndjson' ? protocolLines(stdout.bytes()) : protocolFrames(stdout.bytes());
      expect(replies).toEqual([{ jsonrpc: '2.0', id: 7, result: { t: 'ñandú', pad: 'x'.repeat(40) } }]);
    }
  });

  test('many messages in one write get all their replies, in order', async () => {
    const { child, stdout, stderr } = startServer();
    child.stdin!.write(Array.from({ length: 500 }, (_, id) => request(id) + '\n').join(''));
    await stdout.until((text) => text.split('\n').length - 1 >= 500, `500 replies (stderr: ${stderr.text()})`);
    child.stdin!.end();
    await exitOf(child);
    expect(protocolLines(stdout.bytes()).map((reply) => reply.id)).toEqual(Array.from({ length: 500 }, (_, id) => id));
  });

  test('bad JSON → -32700, oversized → -32600, invalid UTF-8 → -32700 (id null), and it keeps serving', async () => {
    const { child, stdout } = startServer({ WIREMCP_MAX_FRAME: '256' });
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":9,"method":"echo","params":{"t":"'),
      Buffer.from([0xe2, 0x28, 0xa1]),
      Buffer.from('"}}\n'),
    ]);
    child.stdin!.write('{"jsonrpc": "2.0", "id": 1, "method": "echo", oops}\n');
    child.stdin!.write(request(2) + '\n');
    child.stdin!.write(request(3, 'echo', { pad: 'y'.repeat(1000) }) + '\n');
    child.stdin!.write(request(4) + '\n');
    child.stdin!.write(invalidUtf8);
    child.stdin!.write(request(5) + '\n');
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    const replies = protocolLines(stdout.bytes());
    expect(replies.map((reply) => [reply.id, (reply.error as { code?: number } | undefined)?.code ?? 'ok'])).toEqual([
      [null, -32700],
      [2, 'ok'],
      [null, -32600],
      [4, 'ok'],
      [null, -32700],
      [5, 'ok'],
    ]);
  });

  test('Content-Length over the cap: counted through up to maxSkipBytes, not waited for beyond; later requests are served', async () => {
    // maxFrameBytes 256, so maxSkipBytes is 1024 by default.
    const { child, stdout } = startServer({ WIREMCP_MAX_FRAME: '256' });
    const honest = request(2, 'echo', { pad: 'y'.repeat(800) });
    child.stdin!.write(contentLength(request(1)) + contentLength(honest) + contentLength(request(3)));
    // A lying header: four billion bytes that never come. The request right after it is still answered.
    child.stdin!.write('Content-Length: 4000000000\r\n\r\n' + contentLength(request(4)));
    await stdout.until((text) => text.includes('"id":4'), 'the answer to the request after the lying header');
    child.stdin!.write(contentLength(request(5)));
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    const replies = protocolFrames(stdout.bytes());
    expect(replies.map((reply) => [reply.id, (reply.error as { code?: number } | undefined)?.code ?? 'ok'])).toEqual([
      [1, 'ok'],
      [null, -32600],
      [3, 'ok'],
      [null, -32600],
      [4, 'ok'],
      [5, 'ok'],
    ]);
    expect((replies[3]!.error as { message: string }).message).toMatch(/4000000000 bytes .* too large to count through/);
  });

  test('NDJSON: a line that does not end is refused once and the line after its newline is served', async () => {
    const { child, stdout } = startServer({ WIREMCP_MAX_FRAME: '256' });
    child.stdin!.write(request(1) + '\n');
    const endless = Buffer.alloc(64 * 1024, 0x78);
    for (let i = 0; i < 32; i++) child.stdin!.write(endless);
    child.stdin!.write('\n' + request(2) + '\n');
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(protocolLines(stdout.bytes()).map((reply) => [reply.id, (reply.error as { code?: number } | undefined)?.code ?? 'ok'])).toEqual([
      [1, 'ok'],
      [null, -32600],
      [2, 'ok'],
    ]);
  });

  test('stdin closed while a slow request is in flight: the response is written, then exit code 0', async () => {
    const { child, stdout, stderr } = startServer();
    child.stdin!.write(request(1, 'slow', { ms: 300 }) + '\n');
    await stderr.until((text) => text.includes('slow started'), 'the slow request to start');
    child.stdin!.end();
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    // The answer was written before the process exited: stdin EOF ends nothing in progress.
    expect(protocolLines(stdout.bytes())).toEqual([{ jsonrpc: '2.0', id: 1, result: { done: true, ms: 300 } }]);
    expect(stderr.text()).not.toMatch(/Error/);
  });

  test('EPIPE: the client stops reading stdout; the server closes cleanly and exits 0, no unhandled error', async () => {
    const { child, stderr } = startServer();
    // Close the read end of the server's stdout pipe in this process: its next write gets EPIPE.
    child.stdout!.destroy();
    await when(child.stdout!, 'close', () => child.stdout!.closed, 'our end of the pipe to close');
    child.stdin!.write(request(1) + '\n' + request(2) + '\n');
    await stderr.until((text) => text.includes('transport closed'), 'the transport to close on EPIPE');
    // The transport no longer reads stdin: the process has nothing left to do and exits by itself, even
    // though this side has not closed stdin.
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    expect(stderr.text()).not.toMatch(/Unhandled|EPIPE|Error/);
  });
});
