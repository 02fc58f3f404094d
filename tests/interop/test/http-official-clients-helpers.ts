/**
 * The official MCP TypeScript clients — v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`) —
 * connected to our everything server over HTTP: the server runs in this process behind `createHttpHandler` and the
 * node adapter on 127.0.0.1 (real sockets), with the 2024-11-05 HTTP+SSE endpoints enabled. Each connection has the
 * same wire tap as the stdio helpers; `closeAllHttp()` closes the clients, then the servers.
 */
import {
  Client as V2Client,
  SSEClientTransport as V2SseTransport,
  StreamableHTTPClientTransport as V2HttpTransport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CompleteResultOf } from '@wiremcp/protocol';
import type { McpServer } from '@wiremcp/server';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '@wiremcp/transport-http';
import { listen, type Listening } from '@wiremcp/transport-http/node';
import { createEverythingServer } from '@wiremcp/server-everything';
import {
  tap,
  V1_NOTIFICATION_SCHEMAS,
  type Answers,
  type CommonClient,
  type OfficialConnection,
} from './server-official-clients-helpers.js';

/** How an official client talks HTTP: Streamable HTTP (v1; v2 default, auto, pinned 2026-07-28) or 2024-11-05 HTTP+SSE. */
export type HttpFlavor = 'v1' | 'v2' | 'v2-auto' | 'v2-pin' | 'v1-sse' | 'v2-sse';

/** A server under test: its URLs and what serves them. */
export interface HttpFixture {
  readonly url: URL;
  readonly sseUrl: URL;
  readonly server: McpServer;
  readonly handler: HttpHandler;
  readonly listening: Listening;
}

/** One official client over HTTP (the stdio connection's shape; no process). */
export interface HttpConnection extends OfficialConnection {
  /** The v1 Streamable HTTP transport, for session and resumption details. */
  readonly v1Transport: V1HttpTransport | undefined;
}

const fixtures: HttpFixture[] = [];
const connections: HttpConnection[] = [];

/** Starts the everything server on 127.0.0.1 with the HTTP+SSE endpoints on. */
export async function startEverything(options: HttpHandlerOptions = {}): Promise<HttpFixture> {
  const server = createEverythingServer({ onInternalError: () => {} });
  const handler = createHttpHandler(server, { legacySse: true, ...options });
  const listening = await listen(handler);
  const fixture = { url: listening.url, sseUrl: new URL('/sse', listening.url), server, handler, listening };
  fixtures.push(fixture);
  return fixture;
}

/** Connects an official client of `flavor` to `fixture`. */
export async function connectHttp(
  flavor: HttpFlavor,
  fixture: HttpFixture,
  options: { capabilities?: Record<string, unknown>; answers?: Answers } = {},
): Promise<HttpConnection> {
  const capabilities = options.capabilities ?? {};
  const answers = options.answers ?? {};
  const ask = <K extends keyof Answers>(kind: K, requestParams: unknown): never => {
    const answer = answers[kind] as ((params: unknown) => Record<string, unknown>) | undefined;
    if (!answer) throw new Error(`this test client has no answer for ${kind}`);
    return answer(requestParams) as never;
  };
  let connection: HttpConnection;
  if (flavor === 'v1' || flavor === 'v1-sse') {
    const client = new V1Client({ name: 'interop-v1-http', version: '1.0.0' }, { capabilities });
    if ('sampling' in capabilities) client.setRequestHandler(CreateMessageRequestSchema, (request) => ask('sampling', request.params));
    if ('elicitation' in capabilities) client.setRequestHandler(ElicitRequestSchema, (request) => ask('elicitation', request.params));
    if ('roots' in capabilities) client.setRequestHandler(ListRootsRequestSchema, (request) => ask('roots', request.params ?? {}));
    const transport =
      flavor === 'v1' ? new V1HttpTransport(fixture.url, { reconnectionOptions: fastReconnect() }) : new V1SseTransport(fixture.sseUrl);
    const wire = tap(transport as unknown as Parameters<typeof tap>[0]);
    connection = {
      flavor: 'v1',
      client: client as unknown as CommonClient,
      v2: undefined,
      v1Transport: transport instanceof V1HttpTransport ? transport : undefined,
      wire,
      pid: undefined,
      stderr: () => '',
      callTool: (params, callOptions) =>
        client.callTool(params, CallToolResultSchema, callOptions) as Promise<CompleteResultOf<'tools/call'>>,
      onNotification: (method, handler) =>
        client.setNotificationHandler(V1_NOTIFICATION_SCHEMAS[method] as (typeof V1_NOTIFICATION_SCHEMAS)['notifications/message'], (n) =>
          handler(n.params as Record<string, unknown>),
        ),
      serverInfo: () => client.getServerVersion(),
    };
    connections.push(connection);
    await client.connect(transport);
  } else {
    const client = new V2Client(
      { name: 'interop-v2-http', version: '1.0.0' },
      {
        capabilities,
        ...(flavor === 'v2-auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
        ...(flavor === 'v2-pin' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    if ('sampling' in capabilities) client.setRequestHandler('sampling/createMessage', (request) => ask('sampling', request.params));
    if ('elicitation' in capabilities) client.setRequestHandler('elicitation/create', (request) => ask('elicitation', request.params));
    if ('roots' in capabilities) client.setRequestHandler('roots/list', (request) => ask('roots', request.params ?? {}));
    const transport = flavor === 'v2-sse' ? new V2SseTransport(fixture.sseUrl) : new V2HttpTransport(fixture.url);
    const wire = tap(transport as unknown as Parameters<typeof tap>[0]);
    connection = {
      flavor: flavor === 'v2-sse' ? 'v2' : flavor,
      client: client as unknown as CommonClient,
      v2: client,
      v1Transport: undefined,
      wire,
      pid: undefined,
      stderr: () => '',
      callTool: (params, callOptions) =>
        client.callTool(params as Parameters<V2Client['callTool']>[0], callOptions) as Promise<CompleteResultOf<'tools/call'>>,
      onNotification: (method, handler) => client.setNotificationHandler(method, (n) => handler(n.params as Record<string, unknown>)),
      serverInfo: () => client.getServerVersion(),
    };
    connections.push(connection);
    await client.connect(transport);
  }
  return connection;
}

/** Reconnection quick enough for tests (the server's `retry` still governs polling). */
function fastReconnect() {
  return { initialReconnectionDelay: 10, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 };
}

/** Closes every client opened since the last call, then every server. */
export async function closeAllHttp(): Promise<void> {
  await Promise.all(connections.splice(0).map((connection) => connection.client.close().catch(() => {})));
  await Promise.all(
    fixtures.splice(0).map(async (fixture) => {
      await fixture.server.close();
      await fixture.listening.close();
    }),
  );
}
