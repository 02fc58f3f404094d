/**
 * Minimal MCP HTTP endpoints around a real `McpServer`, one per transport generation, for the client's era
 * detection and end-to-end tests (the package's own server handler replaces them in its integration tests):
 *
 * - `modernOnly`: 2026-07-28 POSTs through `McpServer.dispatch` (JSON, or SSE once a notification comes first);
 *   GET and DELETE 405; a POST without a modern `MCP-Protocol-Version` 400 with `-32022`.
 * - `streamableOnly`: 2025 sessions, one `McpServer.connect` per `initialize`, SSE answers on each POST (or JSON),
 *   the standalone GET stream, DELETE; 400 without a session, 404 for an unknown one.
 * - `sseOnly`: 2024-11-05 HTTP+SSE: `GET /sse` → `endpoint` event → `POST /messages?session=…`; everything else 404.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { SendOptions, Transport } from '@wiremcp/jsonrpc';
import type { McpServer } from '@wiremcp/server';
import type { RequestId, RpcMessage } from '@wiremcp/protocol';
import { json, sse, type Handler, type Recorded } from './http-server.test-util.js';

const write = (res: ServerResponse, message: unknown): boolean => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

/** The 2026-07-28 endpoint. */
export function modernOnly(server: McpServer): Handler {
  return async (request, res, raw) => {
    if (request.method !== 'POST') return void (res.writeHead(405, { allow: 'POST' }), res.end());
    const body = request.json as { id?: RequestId; method?: string } | undefined;
    const version = request.headers['mcp-protocol-version'];
    if (version !== '2026-07-28') {
      const error = {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2026-07-28'], requested: version ?? null },
      };
      return json(res, 400, { jsonrpc: '2.0', id: body?.id ?? null, error });
    }
    if (request.headers['mcp-method'] !== body?.method)
      return json(res, 400, { jsonrpc: '2.0', id: body?.id ?? null, error: { code: -32020, message: 'Header mismatch' } });
    const abort = new AbortController();
    raw.socket?.once('close', () => abort.abort());
    let streaming = false;
    const answer = await server.dispatch(body, {
      signal: abort.signal,
      notify: (message) => {
        if (!streaming) sse(res);
        streaming = true;
        write(res, message);
      },
    });
    if (answer === undefined) {
      if (!res.headersSent) res.writeHead(202);
      return void res.end();
    }
    if (streaming) return void (write(res, answer), res.end());
    if ('error' in answer && answer.error.code === -32601) return json(res, 404, answer);
    json(res, 200, answer);
  };
}

/** A session's transport: server messages go to the POST stream of the request they relate to, else the GET stream. */
class SessionTransport implements Transport {
  onmessage?: ((message: unknown) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  readonly posts = new Map<RequestId, ServerResponse>();
  get: ServerResponse | undefined;
  #closed = false;
  async start(): Promise<void> {}
  async send(message: RpcMessage | RpcMessage[], options?: SendOptions): Promise<void> {
    const m = message as { id?: RequestId; method?: string };
    const related = options?.relatedRequestId ?? (m.method === undefined ? m.id : undefined);
    const post = related === undefined ? undefined : this.posts.get(related);
    if (post) {
      write(post, message);
      if (m.method === undefined && m.id === related) {
        this.posts.delete(related!);
        post.end();
      }
    } else if (this.get) write(this.get, message);
  }
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const res of this.posts.values()) res.end();
    this.get?.end();
    this.onclose?.();
  }
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** The legacy Streamable HTTP endpoint; `factory` makes the server of each session. */
export function streamableOnly(
  factory: () => McpServer,
  options: { getStream?: boolean } = {},
): Handler & { sessions: Map<string, SessionTransport> } {
  const sessions = new Map<string, SessionTransport>();
  const handler = async (request: Recorded, res: ServerResponse): Promise<void> => {
    const id = request.headers['mcp-session-id'];
    const session = id === undefined ? undefined : sessions.get(id);
    if (request.method === 'GET') {
      if (options.getStream === false) return void (res.writeHead(405), res.end());
      if (!session) return void (res.writeHead(id === undefined ? 400 : 404), res.end());
      sse(res);
      session.get = res;
      return;
    }
    if (request.method === 'DELETE') {
      if (!session) return void (res.writeHead(404), res.end());
      sessions.delete(id!);
      await session.close();
      return void (res.writeHead(200), res.end());
    }
    const body = request.json as { id?: RequestId; method?: string } | undefined;
    if (body?.method === 'initialize') {
      const transport = new SessionTransport();
      const sessionId = randomUUID();
      await factory().connect(transport);
      sessions.set(sessionId, transport);
      sse(res, { 'mcp-session-id': sessionId });
      transport.posts.set(body.id!, res);
      transport.onmessage?.(body);
      return;
    }
    if (!session) {
      const status = id === undefined ? 400 : 404;
      return json(res, status, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: id === undefined ? 'Bad Request: No valid session ID provided' : 'Session not found' },
      });
    }
    if (body?.method !== undefined && body.id !== undefined) {
      sse(res);
      session.posts.set(body.id, res);
    } else {
      res.writeHead(202);
      res.end();
    }
    session.onmessage?.(body);
  };
  return Object.assign(handler, { sessions });
}

/** The 2024-11-05 HTTP+SSE endpoints (`/sse` and `/messages`). */
export function sseOnly(factory: () => McpServer): Handler {
  const sessions = new Map<string, { transport: SessionTransport }>();
  return async (request, res) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const id = randomUUID();
      const transport = new SessionTransport();
      await factory().connect(transport);
      sse(res);
      transport.get = res;
      sessions.set(id, { transport });
      res.on('close', () => {
        sessions.delete(id);
        void transport.close();
      });
      res.write(`event: endpoint\ndata: /messages?session=${id}\n\n`);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/messages') {
      const session = sessions.get(url.searchParams.get('session') ?? '');
      if (!session) return void (res.writeHead(404), res.end('unknown session'));
      res.writeHead(202);
      res.end('Accepted');
      session.transport.onmessage?.(request.json);
      return;
    }
    res.writeHead(404);
    res.end('Not found');
  };
}
