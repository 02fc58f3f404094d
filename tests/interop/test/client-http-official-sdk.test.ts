/**
 * Interop over HTTP: the wiremcp client, through `httpTransportFactory`, drives the official TypeScript SDK's HTTP
 * servers, in process on 127.0.0.1 — v1 (`StreamableHTTPServerTransport`, stateful sessions with an event store
 * and polling), v2 sessionful (`WebStandardStreamableHTTPServerTransport`) and v2 `createMcpHandler` (2026-07-28
 * per request, and its stateless legacy fallback).
 */
import { randomUUID } from 'node:crypto';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import {
  McpServer as V2McpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  acceptedContent,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, type InputHandlers } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { bodyOf, serveNode, serveWeb, stopAll } from './http-fixtures.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await stopAll();
});

const elicited: string[] = [];
const handlers: InputHandlers = {
  elicitation: (params) => {
    elicited.push(params.message);
    return { action: 'accept', content: { confirm: true } };
  },
};

function client(): McpClient {
  const c = new McpClient({ name: 'wiremcp-http-interop', version: '1.0.0' }, { handlers, onError: () => undefined });
  clients.push(c);
  return c;
}

/** The SDK v1 stateful wiring, as its documentation shows it: one transport per session, an event store, polling. */
async function v1Stateful() {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const cancelled: string[] = [];
  let entered: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (entered = resolve));
  let server: V1McpServer | undefined;
  const make = (): V1McpServer => {
    const s = new V1McpServer({ name: 'official-v1', version: '1.32.2' }, { capabilities: { logging: {} } });
    s.registerTool('add', { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }));
    s.registerTool('deploy', { inputSchema: { env: z.string() } }, async ({ env }, extra) => {
      await s.sendLoggingMessage({ level: 'info', data: `deploying ${env}` }, extra.sessionId);
      const answer = await s.server.elicitInput({
        message: `Deploy to ${env}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return {
        content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.confirm === true ? `deployed ${env}` : 'declined' }],
      };
    });
    s.registerTool('poll', { inputSchema: {} }, async (_args, extra) => {
      // SEP-1699: end the response stream now; the client comes back with GET + Last-Event-ID.
      extra.closeSSEStream?.();
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { content: [{ type: 'text', text: 'polled' }] };
    });
    s.registerTool('wait', { inputSchema: {} }, async (_args, extra) => {
      entered();
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
      cancelled.push(String(extra.requestId));
      return { content: [] };
    });
    server = s;
    return s;
  };
  const served = await serveNode(async (req, res) => {
    const raw = req.method === 'POST' ? await bodyOf(req) : undefined;
    const body: unknown = raw && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    let transport = sessionId === undefined ? undefined : transports.get(sessionId);
    if (transport === undefined && sessionId === undefined && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 20,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
      await make().connect(created);
      transport = created;
    }
    if (transport === undefined) {
      res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }),
      );
    }
    await transport.handleRequest(req, res, body);
  });
  return { served, transports, cancelled, waiting, server: () => server! };
}

describe('official SDK v1 HTTP server (stateful sessions)', () => {
  test('detection finds the session; tools with structured output, logs, elicitation on the POST stream, DELETE on close', async () => {
    const { served, transports } = await v1Stateful();
    const c = client();
    const logs: unknown[] = [];
    c.onLogMessage(({ data }) => logs.push(data));
    const factory = httpTransportFactory(`${served.origin}/mcp`);
    await c.connect(factory);
    expect(c.era).toBe('legacy');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(factory.kind).toBe('streamable');
    expect(c.serverInfo).toMatchObject({ name: 'official-v1' });
    expect((await c.listAllTools()).map((t) => t.name)).toEqual(['add', 'deploy', 'poll', 'wait']);
    expect((await c.callTool('add', { a: 40, b: 2 })).structuredContent).toEqual({ sum: 42 });
    elicited.length = 0;
    expect((await c.callTool('deploy', { env: 'prod' })).content).toEqual([{ type: 'text', text: 'deployed prod' }]);
    expect(elicited).toEqual(['Deploy to prod?']);
    expect(logs).toContain('deploying prod');
    expect(transports.size).toBe(1);
    await c.close();
    expect(served.log.filter((l) => l.startsWith('DELETE'))).toHaveLength(1);
    expect(transports.size).toBe(0);
  });

  test('polling: a response stream closed early is resumed with GET + Last-Event-ID and the result arrives', async () => {
    const { served } = await v1Stateful();
    const c = client();
    await c.connect(httpTransportFactory(`${served.origin}/mcp`, { standaloneStream: false }));
    expect((await c.callTool('poll', {})).content).toEqual([{ type: 'text', text: 'polled' }]);
    expect(served.log.filter((l) => l.startsWith('GET'))).toHaveLength(1);
  });

  test('list changes arrive on the standalone GET stream; cancellation reaches the server', async () => {
    const { served, cancelled, waiting, server } = await v1Stateful();
    const c = client();
    await c.connect(httpTransportFactory(`${served.origin}/mcp`));
    let changed = false;
    c.onToolsListChanged(() => (changed = true));
    // Sent without a related request, the notification goes to the GET stream once the server holds it.
    await until(() => (server().sendToolListChanged(), changed));
    const abort = new AbortController();
    const call = c.callTool('wait', {}, { signal: abort.signal });
    await waiting;
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await until(() => cancelled.length === 1);
  });

  test('an expired session fails with SESSION_EXPIRED, or is renewed transparently when asked', async () => {
    const { served, transports } = await v1Stateful();
    const c = client();
    await c.connect(httpTransportFactory(`${served.origin}/mcp`, { standaloneStream: false }));
    transports.clear();
    await expect(c.callTool('add', { a: 1, b: 1 })).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    const renewing = client();
    await renewing.connect(httpTransportFactory(`${served.origin}/mcp`, { standaloneStream: false, onSessionExpired: 'reinitialize' }));
    transports.clear();
    expect((await renewing.callTool('add', { a: 2, b: 2 })).structuredContent).toEqual({ sum: 4 });
    expect(transports.size).toBe(1);
  });
});

/** Polls a condition across event-loop turns (the servers run in this process). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** A tool input schema whose `region` is mirrored into `Mcp-Param-Region` (the SDK's schema type has no slot for it). */
const ROUTE_SCHEMA = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
} as unknown as Parameters<typeof fromJsonSchema>[0];

function v2Server(): V2McpServer {
  const s = new V2McpServer({ name: 'official-v2', version: '2.4.0' }, { capabilities: { tools: { listChanged: true } } });
  s.registerTool(
    'add',
    { inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  s.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const schema = z.object({ confirm: z.boolean() });
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
    if (confirmed?.confirm !== true) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: schema }) } });
    }
    return { content: [{ type: 'text', text: `deployed ${env}` }] };
  });
  s.registerTool(
    'route',
    {
      inputSchema: fromJsonSchema<{ region?: string; query?: string }>(ROUTE_SCHEMA),
    },
    async (args) => ({ content: [{ type: 'text', text: `routed ${args.region ?? '<none>'}` }] }),
  );
  return s;
}

describe('official SDK v2 HTTP servers', () => {
  test('sessionful (WebStandardStreamableHTTPServerTransport): a legacy session', async () => {
    const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
    const served = await serveWeb(async (request) => {
      const id = request.headers.get('mcp-session-id');
      let transport = id === null ? undefined : transports.get(id);
      if (transport === undefined && id === null) {
        const body = request.method === 'POST' ? ((await request.clone().json()) as { method?: string }) : undefined;
        if (body?.method === 'initialize') {
          const created = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (s) => void transports.set(s, created),
          });
          await v2Server().connect(created);
          transport = created;
        }
      }
      if (transport === undefined)
        return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No session' }, id: null }), {
          status: id === null ? 400 : 404,
        });
      return transport.handleRequest(request);
    });
    const c = client();
    const factory = httpTransportFactory(`${served.origin}/mcp`);
    await c.connect(factory);
    expect(factory.kind).toBe('streamable');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect((await c.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
  });

  test('createMcpHandler: 2026-07-28 per request — discover, calls, an input-required round, x-mcp-header, a listen stream', async () => {
    const handler = createMcpHandler(() => v2Server());
    const served = await serveWeb((request) => handler.fetch(request));
    const c = client();
    const factory = httpTransportFactory(`${served.origin}/mcp`);
    await c.connect(factory);
    expect(c.era).toBe('modern');
    expect(factory.kind).toBe('modern');
    expect((await c.listAllTools()).map((t) => t.name)).toEqual(['add', 'deploy', 'route']);
    expect((await c.callTool('add', { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    elicited.length = 0;
    expect((await c.callTool('deploy', { env: 'staging' })).content).toEqual([{ type: 'text', text: 'deployed staging' }]);
    expect(elicited).toEqual(['Deploy to staging?']);
    // The server checks Mcp-Param-Region against the body (400 -32020 when it is missing or wrong).
    expect((await c.callTool('route', { region: 'Zürich', query: 'x' })).content).toEqual([{ type: 'text', text: 'routed Zürich' }]);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const unmirrored = await fetch(`${served.origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'route',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'route', arguments: { region: 'Zürich' }, _meta: meta },
      }),
    });
    expect(unmirrored.status).toBe(400);
    expect(((await unmirrored.json()) as { error: { code: number } }).error.code).toBe(-32020);
    let notified: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (notified = resolve));
    const stream = await c.listen(
      { toolsListChanged: true },
      { onNotification: ({ method }) => method === 'notifications/tools/list_changed' && notified() },
    );
    expect(stream.acknowledged).toMatchObject({ toolsListChanged: true });
    handler.notify.toolsChanged();
    await changed;
    await stream.close();
    await c.close();
    await handler.close();
  });

  test('createMcpHandler: its stateless legacy fallback serves a client that insists on initialize (GET refused quietly)', async () => {
    const handler = createMcpHandler(() => v2Server());
    const served = await serveWeb((request) => handler.fetch(request));
    const c = new McpClient({ name: 'legacy-only', version: '1.0.0' }, { era: 'legacy', onError: () => undefined });
    clients.push(c);
    await c.connect(httpTransportFactory(`${served.origin}/mcp`));
    expect(c.era).toBe('legacy');
    expect((await c.callTool('add', { a: 5, b: 3 })).structuredContent).toEqual({ sum: 8 });
    await c.close();
    await handler.close();
  });
});
