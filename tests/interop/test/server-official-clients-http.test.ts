/**
 * Our everything server over HTTP (`createHttpHandler` + the node adapter on 127.0.0.1), driven by the official
 * clients: v1 (`@modelcontextprotocol/sdk` 1.32.2) over Streamable HTTP and over the 2024-11-05 HTTP+SSE transport;
 * v2 (`@modelcontextprotocol/client` 2.4.0) over Streamable HTTP with its default negotiation (legacy), with
 * `versionNegotiation: 'auto'` and pinned to 2026-07-28 (both modern, stateless), and over HTTP+SSE. Both eras
 * are served by the one endpoint. Notifications that travel on another stream than the call's (list changes,
 * resource updates on the standalone GET stream) are waited for as events.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { closeAllHttp, connectHttp, startEverything, type HttpConnection, type HttpFlavor } from './http-official-clients-helpers.js';
import {
  ALL_CLIENT_CAPABILITIES,
  eraOnTheWire,
  inputRequiredResults,
  serverRequests,
  TEST_ANSWERS,
  textOf,
  type NotificationMethod,
} from './server-official-clients-helpers.js';

afterEach(closeAllHttp);

const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

const CLIENTS: Array<{ flavor: HttpFlavor; era: 'legacy' | 'modern'; version: string; transport: 'streamable' | 'sse' }> = [
  { flavor: 'v1', era: 'legacy', version: '2025-11-25', transport: 'streamable' },
  { flavor: 'v2', era: 'legacy', version: '2025-11-25', transport: 'streamable' },
  { flavor: 'v2-auto', era: 'modern', version: '2026-07-28', transport: 'streamable' },
  { flavor: 'v2-pin', era: 'modern', version: '2026-07-28', transport: 'streamable' },
  { flavor: 'v1-sse', era: 'legacy', version: '2025-11-25', transport: 'sse' },
  { flavor: 'v2-sse', era: 'legacy', version: '2025-11-25', transport: 'sse' },
];

/** Resolves once `count` notifications of `method` arrived on `connection` (registered before they can arrive). */
function expectNotifications(
  connection: HttpConnection,
  method: NotificationMethod,
  count: number,
): { seen: unknown[]; arrived: Promise<void> } {
  const seen: unknown[] = [];
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  connection.onNotification(method, (params) => {
    seen.push(params);
    if (seen.length === count) arrive();
  });
  return { seen, arrived };
}

describe.each(CLIENTS)('official $flavor client → everything server over HTTP ($transport)', ({ flavor, era, version, transport }) => {
  const connect = async (withClientFeatures = false) =>
    connectHttp(
      flavor,
      await startEverything(),
      withClientFeatures ? { capabilities: ALL_CLIENT_CAPABILITIES, answers: TEST_ANSWERS } : {},
    );

  test(`negotiates the ${era} era at ${version}`, async () => {
    const connection = await connect();
    await connection.client.listTools();
    expect(eraOnTheWire(connection)).toEqual({ era, version });
    expect(connection.serverInfo()).toMatchObject({ name: 'wiremcp-everything' });
    if (connection.v1Transport) expect(connection.v1Transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('tools, resources and prompts', async () => {
    const connection = await connect();
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['test_simple_text', 'test_x_mcp_header']));
    expect(textOf(await connection.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
      'This is a simple text response for testing.',
    );
    const mixed = await connection.callTool({ name: 'test_multiple_content_types', arguments: {} });
    expect(mixed.content.map((block: { type: string }) => block.type)).toEqual(['text', 'image', 'resource']);
    expect(await connection.callTool({ name: 'test_error_handling', arguments: {} })).toMatchObject({ isError: true });
    await expect(connection.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // A mirrored argument: modern clients send Mcp-Param-Region, which the server checks against the body.
    expect(textOf(await connection.callTool({ name: 'test_x_mcp_header', arguments: { region: 'eu-west-1' } }))).toBe('region=eu-west-1');
    const text = await connection.client.readResource({ uri: 'test://static-text' });
    expect(text.contents[0]).toMatchObject({ text: 'This is the content of the static text resource.' });
    expect((await connection.client.getPrompt({ name: 'test_simple_prompt' })).messages[0]?.content).toMatchObject({ type: 'text' });
  });

  test('sampling, elicitation and roots: server→client requests (legacy) or input-required rounds (2026-07-28)', async () => {
    const connection = await connect(true);
    expect(textOf(await connection.callTool({ name: 'test_sampling', arguments: { prompt: 'over http' } }))).toBe(
      'LLM response: model says: over http',
    );
    expect(textOf(await connection.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } }))).toMatch(
      /^User response: action=accept/,
    );
    expect((await connection.callTool({ name: 'test_list_roots', arguments: {} })).structuredContent).toEqual({
      roots: [{ uri: 'file:///interop/workspace', name: 'workspace' }],
    });
    const asked = serverRequests(connection.wire).map((message) => message.method);
    if (era === 'legacy') {
      expect(asked).toEqual(['sampling/createMessage', 'elicitation/create', 'roots/list']);
    } else {
      expect(asked).toEqual([]);
      expect(inputRequiredResults(connection.wire).map((round) => Object.values(round.inputRequests ?? {})[0]!.method)).toEqual([
        'sampling/createMessage',
        'elicitation/create',
        'roots/list',
      ]);
    }
  });

  test('progress and logging reach the client on the call’s own stream', async () => {
    const connection = await connect();
    const progress: number[] = [];
    await connection.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
    const logs = expectNotifications(connection, 'notifications/message', 3);
    if (era === 'legacy') {
      await connection.client.setLoggingLevel('info');
      await connection.callTool({ name: 'test_tool_with_logging', arguments: {} });
    } else {
      await connection.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL_KEY]: 'info' } });
    }
    await logs.arrived;
    expect(logs.seen.map((log) => (log as { data?: unknown }).data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
  });

  test('list changes and resource updates arrive (the standalone stream, or a listen stream)', async () => {
    const connection = await connect();
    const tools = expectNotifications(connection, 'notifications/tools/list_changed', 1);
    const updates = expectNotifications(connection, 'notifications/resources/updated', 1);
    let close: (() => Promise<unknown>) | undefined;
    if (era === 'legacy') {
      await connection.client.subscribeResource({ uri: 'test://watched-resource' });
    } else {
      const subscription = await connection.v2!.listen({ toolsListChanged: true, resourceSubscriptions: ['test://watched-resource'] });
      close = () => subscription.close();
    }
    await connection.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await connection.callTool({ name: 'test_update_watched_resource', arguments: {} });
    await Promise.all([tools.arrived, updates.arrived]);
    expect(updates.seen[0]).toMatchObject({ uri: 'test://watched-resource' });
    await close?.();
  });

  test('cancellation: the server stops the work and keeps serving', async () => {
    const connection = await connect();
    const controller = new AbortController();
    let started!: () => void;
    const progressing = new Promise<void>((resolve) => (started = resolve));
    const call = connection.callTool(
      { name: 'test_long_running_operation', arguments: { durationMs: 60_000, steps: 600 } },
      { signal: controller.signal, onprogress: () => started() },
    );
    await progressing;
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    expect(textOf(await connection.callTool({ name: 'test_simple_text', arguments: {} }))).toMatch(/simple text/);
  });
});

describe('resumption and sessions (official v1 client, Streamable HTTP)', () => {
  test('test_reconnection: the server closes the call’s stream; the client resumes with GET and Last-Event-ID', async () => {
    const fixture = await startEverything();
    const requests: Array<{ method: string; lastEventId: string | null }> = [];
    const connection = await connectHttp('v1', fixture);
    const inner = connection.v1Transport as unknown as { _fetch?: typeof fetch };
    const original = inner._fetch ?? fetch;
    inner._fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      requests.push({ method: init?.method ?? 'GET', lastEventId: headers.get('last-event-id') });
      return original(input, init);
    };
    const result = await connection.callTool({ name: 'test_reconnection', arguments: {} });
    expect(textOf(result)).toBe('Reconnection test completed');
    expect(requests.some((request) => request.method === 'GET' && request.lastEventId !== null)).toBe(true);
  });

  test('closing the client ends the session with DELETE; the id then gets 404', async () => {
    const fixture = await startEverything();
    const connection = await connectHttp('v1', fixture);
    const sessionId = connection.v1Transport!.sessionId!;
    expect(fixture.handler.stats.sessions).toBe(1);
    await connection.v1Transport!.terminateSession();
    expect(fixture.handler.stats.sessions).toBe(0);
    const after = await fetch(fixture.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });
});
