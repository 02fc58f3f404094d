/**
 * Test helpers for the server handler: a small server with one tool per behaviour under test, request builders
 * for both eras, and a minimal SSE reader (events as they arrive, so tests wait for events, not for time).
 */
import { encodeHeaderValue, MetaKey, mirroredName, type JsonObject } from '@wiremcp/protocol';
import { McpServer } from '@wiremcp/server';
import { createHttpHandler, type HttpHandler } from './http-handler.js';
import type { HttpHandlerOptions } from './options.js';

export const ENDPOINT = 'http://localhost/mcp';
export const BOTH = 'application/json, text/event-stream';

/** A value a test settles later. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** A deferred value, for tools that wait for the test. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the test server's tools let a test observe or control. */
export interface Probe {
  /** Aborts seen by `wait` (its `ctx.signal`). */
  aborted: number;
  /** Resolves at the first abort `wait` sees. */
  abort: Deferred;
  /** Released by the test to let `wait` finish. */
  release: Deferred;
  /** Resolves when `wait` started. */
  started: Deferred;
  /** What `whoami` saw in `ctx.transportInfo`. */
  info: JsonObject | undefined;
}

/** A server with: echo, progress, wait (cancellable), sample (asks the client), poll (closes its SSE stream), header tools. */
export function testServer(): { server: McpServer; probe: Probe } {
  const server = new McpServer({ name: 'http-test', version: '1.0.0' }, { onInternalError: () => {} });
  const probe: Probe = { aborted: 0, abort: deferred(), release: deferred(), started: deferred(), info: undefined };
  server.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({ content: [{ type: 'text', text: args.text ?? '' }] }),
  );
  server.registerResource({ uri: 'x://é', name: 'accented' }, (uri) => ({ contents: [{ uri, text: 'é' }] }));
  server.registerTool({ name: 'progress', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    await ctx.sendProgress(1, 2, 'half');
    await ctx.log('info', 'working');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool({ name: 'wait', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => {
      probe.aborted += 1;
      probe.abort.resolve();
    });
    await ctx.sendProgress(0, 1); // streams when the caller asked for progress
    probe.started.resolve();
    await Promise.race([probe.release.promise, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    return { content: [{ type: 'text', text: 'released' }] };
  });
  server.registerTool({ name: 'sample', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
    return { content: [{ type: 'text', text: `sampled: ${(answer.content as { text?: string }).text ?? ''}` }] };
  });
  server.registerTool({ name: 'poll', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    await ctx.sendProgress(1, 3);
    (ctx.transportInfo?.closeSseStream as (() => void) | undefined)?.();
    await ctx.sendProgress(2, 3);
    await probe.release.promise;
    return { content: [{ type: 'text', text: 'after reconnection' }] };
  });
  server.registerTool({ name: 'whoami', inputSchema: { type: 'object' } }, (_args, ctx) => {
    const info = ctx.transportInfo ?? {};
    probe.info = { headers: info.headers, sessionId: info.sessionId, auth: info.auth } as JsonObject;
    return { content: [{ type: 'text', text: String((info.auth as { subject?: string } | undefined)?.subject ?? 'nobody') }] };
  });
  server.registerTool(
    {
      name: 'headers',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
          nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
          plain: { type: 'string' },
        },
      },
    },
    (args: JsonObject) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  return { server, probe };
}

/** A handler over a fresh test server. */
export function testHandler(options: HttpHandlerOptions = {}): { handler: HttpHandler; server: McpServer; probe: Probe } {
  const { server, probe } = testServer();
  return { handler: createHttpHandler(server, options), server, probe };
}

/** The required 2026-07-28 `_meta`, plus `extra`. */
export function meta(extra: JsonObject = {}): JsonObject {
  return { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {}, ...extra };
}

/** The headers a 2026-07-28 request mirrors from its body. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: BOTH,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

/** A POST to the endpoint. */
export function post(body: unknown, headers: Record<string, string>, url = ENDPOINT): Request {
  return new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A 2026-07-28 request POST with correct headers (`headers` overrides them). */
export function modernPost(
  method: string,
  params: JsonObject = {},
  headers: Record<string, string> = {},
  id: number | string = 1,
): Request {
  const name = mirroredName(method, params);
  const merged = modernHeaders(method, name === undefined ? undefined : encodeHeaderValue(name));
  for (const [key, value] of Object.entries(headers)) {
    delete merged[key.toLowerCase()];
    if (value !== '') merged[key] = value; // '' removes the header
  }
  return post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(params._meta as JsonObject | undefined) } }, merged);
}

/** Headers of a request in a legacy session. */
export function sessionHeaders(sessionId: string, version = '2025-11-25'): Record<string, string> {
  return { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
}

/** Sends a test request to a listening server instead of a handler (its URL's path is kept, the origin replaced). */
export function viaSocket(endpoint: URL): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    return fetch(endpoint, { method: request.method, headers: request.headers, body });
  };
}

/** Opens a legacy session; resolves with its id. */
export async function initialize(
  handler: (request: Request) => Promise<Response>,
  version = '2025-11-25',
  capabilities: JsonObject = {},
): Promise<string> {
  const response = await handler(
    post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities, clientInfo: { name: 't', version: '1' } },
      },
      { 'content-type': 'application/json', accept: BOTH },
    ),
  );
  const id = response.headers.get('mcp-session-id');
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  const initialized = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id, version)));
  if (initialized.status !== 202) throw new Error(`notifications/initialized: ${initialized.status}`);
  return id;
}

/** The JSON body of a response. */
export async function json(response: Response): Promise<JsonObject> {
  return (await response.json()) as JsonObject;
}

/** One SSE event as a test sees it. */
export interface TestEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
  /** The data parsed as JSON, when it is JSON. */
  message?: JsonObject;
}

/** Reads the events of an SSE response as they arrive. */
export class SseReader {
  readonly events: TestEvent[] = [];
  readonly comments: string[] = [];
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #buffer = '';
  #ended = false;

  constructor(response: Response) {
    if (!response.body) throw new Error('no body');
    this.#reader = response.body.getReader();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Resolves with the next event (`undefined` once the stream ended). */
  async next(): Promise<TestEvent | undefined> {
    const before = this.events.length;
    while (this.events.length === before) if (!(await this.#pump())) return undefined;
    return this.events[before];
  }

  /** Reads one chunk; false once the stream ended. */
  async #pump(): Promise<boolean> {
    if (this.#ended) return false;
    const { done, value } = await this.#reader.read();
    if (done) {
      this.#ended = true;
      return false;
    }
    this.#buffer += this.#decoder.decode(value, { stream: true });
    this.#parse();
    return true;
  }

  /** Reads until `count` events arrived (or the end); resolves with all events so far. */
  async take(count: number): Promise<TestEvent[]> {
    while (this.events.length < count && (await this.next()) !== undefined);
    return this.events;
  }

  /** Reads to the end. */
  async all(): Promise<TestEvent[]> {
    while ((await this.next()) !== undefined);
    return this.events;
  }

  /** Reads until a comment line arrives. */
  async comment(): Promise<string> {
    const before = this.comments.length;
    while (this.comments.length === before) if (!(await this.#pump())) throw new Error('the stream ended without a comment');
    return this.comments[before]!;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }

  #parse(): void {
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const event: TestEvent = { data: '' };
      const data: string[] = [];
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line);
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        isEvent = true;
        if (field === 'data') data.push(value);
        else if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'retry') event.retry = Number(value);
      }
      if (!isEvent) continue;
      event.data = data.join('\n');
      try {
        if (event.data !== '') event.message = JSON.parse(event.data) as JsonObject;
      } catch {
        // Not JSON (an endpoint event).
      }
      this.events.push(event);
    }
  }
}
