// The HTTP drain's faults, on a real McpServer behind a server main on 127.0.0.1 (real sockets, a process double for
// signals and exits): a request still running at the drain deadline is counted as cut and the exit is 1, in a
// 2025-era session (JSON or streamed answer) and statelessly at 2026-07-28; a request that finishes within the
// deadline is answered and the exit is 0; a client that never reads its stream cannot hold the process past the
// deadline; a second SIGTERM exits at once with 143. Every wait is on an event (the tool started, a stderr line).
import { McpServer } from '@wiremcp/server';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { fakeProcess, gate, type FakeProcess } from './main-process.test-util.js';
import { runServerMain } from './run-server-main.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = 'application/json, text/event-stream';

interface Running {
  readonly process: FakeProcess;
  readonly url: URL;
  readonly done: Promise<number>;
  /** Resolves when the `hold` tool started (once per call). */
  readonly started: () => Promise<void>;
  /** Lets every held call finish. */
  release(): void;
}

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves once stderr holds a line matching `pattern`. */
function stderrLine(process: FakeProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    const check = (): void => {
      const match = pattern.exec(process.err());
      if (match) resolve(match);
      else process.stderr.once('data', check);
    };
    check();
  });
}

/**
 * A server main over HTTP whose server has `hold` (runs until released or cancelled; with a progress token it streams
 * first) and `flood` (sends `count` progress notifications of `size` characters each, then answers).
 */
async function start(drainSeconds: string): Promise<Running> {
  let release = gate();
  let started = gate();
  const createServer = (): McpServer => {
    const server = new McpServer({ name: 'drain', version: '1.0.0' }, { onInternalError: () => {} });
    server.registerTool({ name: 'hold', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.sendProgress(0, 1);
      started.open();
      await Promise.race([release.promise, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
      return { content: [{ type: 'text', text: 'released' }] };
    });
    server.registerTool(
      { name: 'flood', inputSchema: { type: 'object', properties: { count: { type: 'integer' }, size: { type: 'integer' } } } },
      async (args: { count?: number; size?: number }, ctx) => {
        const count = args.count ?? 1;
        for (let i = 1; i <= count; i += 1) await ctx.sendProgress(i, count, 'x'.repeat(args.size ?? 1));
        started.open();
        return { content: [{ type: 'text', text: 'flooded' }] };
      },
    );
    return server;
  };
  const process = fakeProcess(['--http', '127.0.0.1:0', '--drain-timeout', drainSeconds]);
  const done = runServerMain({ name: 'drain', version: '1.0.0', usage: 'A server.', createServer, process });
  const [, href] = await stderrLine(process, /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  cleanups.push(async () => {
    release.open();
    if (process.exits.length === 0) process.signal('SIGTERM');
    await done;
  });
  return {
    process,
    url: new URL(href!),
    done,
    started: async () => {
      await started.promise;
      started = gate();
    },
    release: () => {
      release.open();
      release = gate();
    },
  };
}

/** A POST with a raw node:http request (no pooling, nothing read for us): the response, once its headers arrived. */
function post(url: URL, body: unknown, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The whole body, or the error that cut it. */
function bodyOf(response: IncomingMessage): Promise<string | Error> {
  return new Promise((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.once('end', () => resolve(text));
    response.once('error', (error) => resolve(error));
    response.once('aborted', () => resolve(new Error(`aborted after ${text.length} characters`)));
  });
}

/** Opens a 2025-11-25 session; its headers for the next requests. */
async function session(url: URL): Promise<Record<string, string>> {
  const init = await post(
    url,
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
    {},
  );
  await bodyOf(init);
  const headers = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  await bodyOf(await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
  return headers;
}

const call = (id: number, name: string, args: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: meta },
});

const CUT = /drain: drain deadline \(\d+ ms\) passed: (\d+) request\(s\) in progress cut/;

describe('a request still running at the drain deadline is cut, counted, and the exit is 1', () => {
  test('2025-11-25 session, answer pending as JSON: the client is not told its session is gone', async () => {
    const server = await start('0.3');
    const headers = await session(server.url);
    const held = post(server.url, call(7, 'hold'), headers);
    await server.started();
    server.process.signal('SIGTERM');
    expect(await server.done).toBe(1);
    expect(CUT.exec(server.process.err())?.[1]).toBe('1');
    const response = await held;
    const text = await bodyOf(response);
    // Without shared state the session ends with this process: the answer says so, for this request.
    expect(response.statusCode).toBe(404);
    expect(text).toContain('Session not found');
  });

  test('2025-11-25 session, answer streaming (progress asked): an error for the request on its stream', async () => {
    const server = await start('0.3');
    const headers = await session(server.url);
    const held = await post(server.url, call(8, 'hold', {}, { progressToken: 'p' }), headers);
    expect(held.headers['content-type']).toContain('text/event-stream');
    const body = bodyOf(held);
    await server.started();
    server.process.signal('SIGTERM');
    expect(await server.done).toBe(1);
    expect(CUT.exec(server.process.err())?.[1]).toBe('1');
    const text = await body;
    expect(text).toContain('"method":"notifications/progress"');
    expect(text).toMatch(/"id":8,"error":\{"code":-32603,[^}]*"data":\{"reason":"session-ended"\}/);
  });

  test('2026-07-28 stateless request: its socket is cut at the deadline', async () => {
    const server = await start('0.3');
    const held = post(
      server.url,
      { ...call(9, 'hold'), params: { name: 'hold', arguments: {}, _meta: META } },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'hold',
      },
    );
    await server.started();
    server.process.signal('SIGTERM');
    expect(await server.done).toBe(1);
    expect(CUT.exec(server.process.err())?.[1]).toBe('1');
    // Cut before its headers or during its body: either way no answer.
    await expect(held.then(bodyOf, (error: unknown) => error)).resolves.toBeInstanceOf(Error);
  });
});

describe('within the deadline nothing is cut', () => {
  test('a request released during the drain is answered, in both eras, and the exit is 0', async () => {
    const server = await start('30');
    const headers = await session(server.url);
    const legacy = post(server.url, call(1, 'hold'), headers);
    await server.started();
    const modern = post(
      server.url,
      { ...call(2, 'hold'), params: { name: 'hold', arguments: {}, _meta: META } },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'hold',
      },
    );
    await server.started();
    server.process.signal('SIGTERM');
    await stderrLine(server.process, /drain: SIGTERM, shutting down/);
    server.release();
    for (const answer of await Promise.all([legacy.then(bodyOf), modern.then(bodyOf)])) expect(answer).toContain('released');
    expect(await server.done).toBe(0);
    expect(server.process.err()).not.toMatch(CUT);
  });
});

describe('clients that do not cooperate', () => {
  test('a client that never reads its stream cannot hold the process past the deadline', async () => {
    const server = await start('0.5');
    const headers = await session(server.url);
    // About 16 MB of progress on one POST stream whose reader is paused from the first byte: socket buffers fill up.
    const response = await post(server.url, call(3, 'flood', { count: 256, size: 65_536 }, { progressToken: 'f' }), headers);
    response.pause();
    await server.started();
    server.process.signal('SIGTERM');
    expect(await server.done).toBe(1);
    expect(CUT.exec(server.process.err())?.[1]).toBe('1');
    // The drain finished by itself: the main's overrun guard (deadline + 1.5 s) never fired.
    expect(server.process.err()).not.toMatch(/not stopped \d+ ms after SIGTERM/);
    response.destroy();
  });

  test('a second SIGTERM during the drain exits at once with 143', async () => {
    const server = await start('600');
    const headers = await session(server.url);
    const held = post(server.url, call(4, 'hold'), headers);
    await server.started();
    server.process.signal('SIGTERM');
    await stderrLine(server.process, /drain: SIGTERM, shutting down/);
    server.process.signal('SIGTERM');
    expect(await server.done).toBe(143);
    expect(server.process.err()).toContain('drain: SIGTERM again, exiting now');
    server.release();
    await held.then(bodyOf);
  });
});
