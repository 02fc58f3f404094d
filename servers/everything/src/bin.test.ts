import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, initializeParams, modernMeta, startServer, stopAll } from './server-process.test-util.js';

beforeAll(assertBuilt);
afterEach(stopAll);

describe('wiremcp-everything over stdio', () => {
  test('NDJSON: a legacy session with progress; stdout holds only protocol lines; stdin EOF exits 0', async () => {
    const server = startServer();
    const init = await server.request(1, 'initialize', initializeParams('2025-06-18'));
    expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'wiremcp-everything' } });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const result = await server.request(2, 'tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'p1' },
    });
    expect(result.result.content[0].text).toMatch(/Progress test completed/);
    const progress = server.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
    expect(progress).toEqual([0, 50, 100]);
    server.endInput();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const lines = server.stdout.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr).toMatch(/serving MCP on stdio \(framing: auto\)/);
  });

  test('Content-Length (fixed by flag): 2026-07-28 requests, replies framed the same way', async () => {
    const server = startServer(['--framing', 'content-length'], 'content-length');
    const discover = await server.request('d', 'server/discover', { _meta: modernMeta() });
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28', '2024-11-05']),
    });
    const read = await server.request('r', 'resources/read', { uri: 'test://static-text', _meta: modernMeta() });
    expect(read.result.contents[0].text).toBe('This is the content of the static text resource.');
    expect(server.stdout.toString('ascii')).toMatch(/^Content-Length: \d+\r\n\r\n/);
    server.endInput();
    expect((await server.exited).code).toBe(0);
  });

  test('auto framing detects Content-Length from the first bytes', async () => {
    const server = startServer([], 'content-length');
    const list = await server.request(1, 'tools/list', { _meta: modernMeta() });
    expect(list.result.tools.length).toBeGreaterThan(30);
  });

  test('2026-07-28 input-required round trip over stdio', async () => {
    const server = startServer();
    const params = { name: 'test_input_required_result_elicitation', arguments: {}, _meta: modernMeta({ elicitation: {} }) };
    const first = await server.request(1, 'tools/call', params);
    expect(Object.keys(first.result.inputRequests)).toEqual(['user_name']);
    const done = await server.request(2, 'tools/call', {
      ...params,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first.result.requestState,
    });
    expect(done.result.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
    // No server-to-client request ever appears in the modern era.
    expect(server.messages.filter((m) => m.method !== undefined && m.id !== undefined)).toEqual([]);
  });

  test('legacy sampling: the server asks the client over stdout and completes with the answer', async () => {
    const server = startServer();
    await server.request(1, 'initialize', initializeParams('2025-11-25', { sampling: {} }));
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'Hi' } } });
    const ask = await server.next((m) => m.method === 'sampling/createMessage');
    expect(ask.params).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100 });
    server.send({ jsonrpc: '2.0', id: ask.id, result: { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'm' } });
    const result = await server.next((m) => m.id === 2 && !('method' in m));
    expect(result.result.content).toEqual([{ type: 'text', text: 'LLM response: Hello!' }]);
  });

  test('stdin EOF with work in progress: the answer is still sent, then the process exits 0', async () => {
    const server = startServer();
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'test_long_running_operation', arguments: { durationMs: 300, steps: 3 }, _meta: modernMeta() },
    });
    server.endInput();
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(server.messages.find((m) => m.id === 1)?.result.content[0].text).toBe('Long-running operation completed: 3 steps in 300 ms');
  });

  test('a cancelled call sends no result; the server keeps serving', async () => {
    const server = startServer();
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'test_long_running_operation',
        arguments: { durationMs: 5000, steps: 50 },
        _meta: { ...modernMeta(), progressToken: 1 },
      },
    });
    await server.next((m) => m.method === 'notifications/progress');
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'test' } });
    const ping = await server.request(2, 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: modernMeta() });
    expect(ping.result.content[0].text).toMatch(/simple text/);
    // Another round trip: whatever the server wrote for request 1 after the cancellation is in by its answer.
    await server.request(3, 'tools/list', { _meta: modernMeta() });
    expect(server.messages.filter((m) => m.id === 1)).toEqual([]);
  });

  test('invalid JSON is answered -32700 and the server keeps serving', async () => {
    const server = startServer();
    server.sendRaw('{not json}\n');
    const error = await server.next((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect((await server.request(1, 'tools/list', { _meta: modernMeta() })).result.tools).toBeDefined();
  });

  test('SIGTERM during a long call exits 0 promptly', async () => {
    const server = startServer();
    // Once a request is answered the server is up (and its signal handlers installed).
    await server.request(0, 'tools/list', { _meta: modernMeta() });
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'test_long_running_operation',
        arguments: { durationMs: 60000, steps: 600 },
        _meta: { ...modernMeta(), progressToken: 1 },
      },
    });
    // The call is under way once it reports progress; it would take a minute, far beyond the test's own timeout.
    await server.next((m) => m.method === 'notifications/progress');
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr).toMatch(/SIGTERM, shutting down/);
  });

  test('a bad command line exits 2 with the reason and the usage on stderr, nothing on stdout', async () => {
    const server = startServer(['--framing', 'xml']);
    expect((await server.exited).code).toBe(2);
    expect(server.stderr).toMatch(/--framing must be one of ndjson, content-length, auto/);
    expect(server.stderr).toMatch(/Usage: wiremcp-everything/);
    expect(server.stdout.length).toBe(0);
  });

  test('--help prints the usage on stderr and exits 0', async () => {
    const server = startServer(['--help']);
    expect((await server.exited).code).toBe(0);
    expect(server.stderr).toMatch(/Usage: wiremcp-everything/);
    expect(server.stdout.length).toBe(0);
  });
});
