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
    expect(result.result).toMatchObject({ content: [{ text: expect.stringMatching(/Progress test completed/) }] });
    const progress = server.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progress);
    expect(progress).toEqual([0, 50, 100]);
    server.endInput();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const lines = server.stdout.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr).toMatch(/^wiremcp-everything 0\.1\.0: serving MCP on stdio \(framing: auto\)\n/);
  });

  test('Content-Length (fixed by flag): 2026-07-28 requests, replies framed the same way', async () => {
    const server = startServer(['--framing', 'content-length'], 'content-length');
    const discover = await server.request('d', 'server/discover', { _meta: modernMeta() });
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28', '2024-11-05']),
    });
    const read = await server.request('r', 'resources/read', { uri: 'test://static-text', _meta: modernMeta() });
    expect(read.result).toMatchObject({ contents: [{ text: 'This is the content of the static text resource.' }] });
    expect(server.stdout.toString('ascii')).toMatch(/^Content-Length: \d+\r\n\r\n/);
    server.endInput();
    expect((await server.exited).code).toBe(0);
  });

  test('auto framing detects Content-Length from the first bytes', async () => {
    const server = startServer([], 'content-length');
    const list = await server.request(1, 'tools/list', { _meta: modernMeta() });
    expect((list.result?.tools as unknown[]).length).toBeGreaterThan(30);
  });

  test('2026-07-28 input-required round trip over stdio', async () => {
    const server = startServer();
    const params = { name: 'test_input_required_result_elicitation', arguments: {}, _meta: modernMeta({ elicitation: {} }) };
    const first = await server.request(1, 'tools/call', params);
    expect(Object.keys(first.result?.inputRequests as object)).toEqual(['user_name']);
    const done = await server.request(2, 'tools/call', {
      ...params,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first.result?.requestState,
    });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
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
    expect(result.result?.content).toEqual([{ type: 'text', text: 'LLM response: Hello!' }]);
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
    expect(server.messages.find((m) => m.id === 1)?.result?.content).toEqual([
      { type: 'text', text: 'Long-running operation completed: 3 steps in 300 ms' },
    ]);
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
    expect(ping.result?.content).toEqual([{ type: 'text', text: expect.stringMatching(/simple text/) }]);
    // At the end of input the server answers whatever is still in progress before it exits: the cancelled
    // call is not, so once the process is gone, everything it would ever write is in.
    server.endInput();
    expect((await server.exited).code).toBe(0);
    expect(server.messages.filter((m) => m.id === 1)).toEqual([]);
  });

  test('invalid JSON is answered -32700 and the server keeps serving', async () => {
    const server = startServer();
    server.sendRaw('{not json}\n');
    const error = await server.next((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect((await server.request(1, 'tools/list', { _meta: modernMeta() })).result?.tools).toBeDefined();
  });

  test('SIGTERM during a long call: the shutdown is logged and the exit code is 0', async () => {
    const server = startServer();
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'test_long_running_operation',
        arguments: { durationMs: 60000, steps: 1000 },
        _meta: { ...modernMeta(), progressToken: 't' },
      },
    });
    // Its first progress notification: the call is in progress (and the signal handlers are installed).
    await server.next((m) => m.method === 'notifications/progress');
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr).toMatch(/wiremcp-everything: SIGTERM, shutting down\n/);
  });
});

describe('hostile input', () => {
  test('a Content-Length far above the frame cap is refused (-32600) and the request right after it is answered', async () => {
    const server = startServer([], 'content-length');
    await server.request(0, 'tools/list', { _meta: modernMeta() });
    // Four billion bytes announced, none sent: the next frame must not be swallowed.
    server.sendRaw('Content-Length: 4000000000\r\n\r\n');
    const answer = await server.request(1, 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: modernMeta() });
    expect(answer.result?.content).toEqual([{ type: 'text', text: expect.stringMatching(/simple text/) }]);
    const refused = server.messages.find((m) => m.error !== undefined);
    expect(refused).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/4000000000 bytes exceeds maxFrameBytes/) },
    });
    server.endInput();
    expect((await server.exited).code).toBe(0);
  });

  test('NDJSON: a 20 MiB line is refused once (-32600), without being stored, and the next line is answered', async () => {
    const server = startServer();
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    chunk[0] = 0x7b;
    for (let i = 0; i < 20; i++) server.sendRaw(chunk);
    server.sendRaw('\n');
    const answer = await server.request(1, 'tools/list', { _meta: modernMeta() });
    expect(answer.result?.tools).toBeDefined();
    expect(server.messages.filter((m) => m.error !== undefined)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/exceeds maxFrameBytes \(16777216\)/) } },
    ]);
  });
});

describe('the command line', () => {
  test('a bad command line: one line and a hint on stderr, exit 2, nothing on stdout', async () => {
    const server = startServer(['--framing', 'xml']);
    expect((await server.exited).code).toBe(2);
    expect(server.stderr).toBe(
      `wiremcp-everything: --framing must be one of ndjson, content-length, auto, got "xml"\nRun 'wiremcp-everything --help' for usage.\n`,
    );
    expect(server.stdout.length).toBe(0);
  });

  test('--help prints the usage on stderr and exits 0; --version prints the version', async () => {
    const help = startServer(['--help']);
    expect((await help.exited).code).toBe(0);
    expect(help.stderr).toMatch(
      /^Usage: wiremcp-everything \[options\]\n[\s\S]*--page-size N[\s\S]*--framing ndjson\|content-length\|auto/,
    );
    expect(help.stdout.length).toBe(0);
    const version = startServer(['--version']);
    expect((await version.exited).code).toBe(0);
    expect(version.stderr).toBe('wiremcp-everything 0.1.0\n');
  });
});
