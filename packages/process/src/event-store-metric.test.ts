// `--http` with `--metrics`: the event-store gauges (events and bytes kept for SSE resumption) move as a legacy
// session's standalone stream stores events, and fall back once the session is deleted. The server runs inside the
// test process on a process double, on real sockets.
import { McpServer } from '@wiremcp/server';
import { expect, test } from 'vitest';
import { fakeProcess } from './main-process.test-util.js';
import { runServerMain } from './run-server-main.js';

/** Resolves with the first match of `pattern` in what the process wrote to stderr (waiting for more as it comes). */
function stderrMatch(process: ReturnType<typeof fakeProcess>, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = (): void => {
      const match = pattern.exec(process.err());
      if (match) resolve(match[1]!);
      else process.stderr.once('data', check);
    };
    check();
  });
}

test('the event-store gauges count the events kept, and drop them with the session', async () => {
  const process = fakeProcess(['--http', '127.0.0.1:0', '--metrics', '127.0.0.1:0']);
  const server = new McpServer({ name: 'events', version: '1.0.0' }, { onInternalError: () => {} });
  server.registerTool({ name: 'noop', inputSchema: { type: 'object' } }, () => ({ content: [] })); // tools.listChanged
  const done = runServerMain({ name: 'events', version: '1.0.0', usage: 'A server.', createServer: () => server, process });
  const endpoint = new URL(await stderrMatch(process, /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/));
  const metricsUrl = new URL(await stderrMatch(process, /Prometheus metrics at (\S+)/));
  const gauge = async (name: string): Promise<number | undefined> => {
    const text = await (await fetch(metricsUrl)).text();
    const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    return match ? Number(match[1]) : undefined;
  };
  try {
    expect(await gauge('wiremcp_http_event_store_events')).toBe(0);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
    const opened = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
    });
    await opened.text();
    const session = { ...headers, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await (
      await fetch(endpoint, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    // The standalone stream: its priming event is stored, then a list change.
    const stream = await fetch(endpoint, { headers: { ...session, accept: 'text/event-stream' } });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value);
    server.notifyToolListChanged();
    while (!received.includes('list_changed')) received += decoder.decode((await reader.read()).value);
    expect(await gauge('wiremcp_http_event_store_events')).toBe(2);
    // The priming event's data is empty: the bytes are the list change's, as sent.
    const data = /^data: (.*list_changed.*)$/m.exec(received)![1]!;
    expect(await gauge('wiremcp_http_event_store_bytes')).toBe(data.length);
    await reader.cancel();
    expect((await fetch(endpoint, { method: 'DELETE', headers: session })).status).toBe(200);
    expect(await gauge('wiremcp_http_event_store_events')).toBe(0);
    expect(await gauge('wiremcp_http_event_store_bytes')).toBe(0);
  } finally {
    process.signal('SIGTERM');
  }
  expect(await done).toBe(0);
});
