import { RpcError } from '@wiremcp/protocol';
import { describe, expect, test, vi } from 'vitest';
import { connected, demoServer, until } from './client.test-util.js';
import type { InputHandlers } from './options.js';

const handlers: InputHandlers = {
  elicitation: (params) => ({ action: 'accept', content: { name: params.message === 'Your name?' ? 'Ada' : 'x' } }),
  sampling: (params) => ({ role: 'assistant', content: { type: 'text', text: `sampled ${params.maxTokens}` }, model: 'test-model' }),
  roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
};

const legacy = (extra: Parameters<typeof connected>[1] = {}) => connected(demoServer().server, { era: 'legacy', ...extra });

describe('legacy era against McpServer', () => {
  test('initialize negotiates 2025-11-25 with capabilities derived from the handlers', async () => {
    const { client, written } = await legacy({ handlers });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(JSON.parse(written[0]!).params.capabilities).toEqual({
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    expect(client.clientCapabilities).toEqual({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } });
    expect(client.serverInfo).toMatchObject({ name: 'demo', version: '1.0.0' });
    expect(client.instructions).toBe('Be nice.');
    expect(written[1]).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await client.close();
  });

  test('older revisions shape the declared capabilities (no elicitation before 2025-06-18)', async () => {
    const { client, written } = await legacy({ handlers, protocolVersion: '2025-03-26' });
    expect(client.protocolVersion).toBe('2025-03-26');
    expect(JSON.parse(written[0]!).params.capabilities).toEqual({ sampling: {}, roots: { listChanged: true } });
    await client.close();
  });

  test('ping, tools, resources, templates, prompts, completion', async () => {
    const { client } = await legacy();
    expect(await client.ping()).toEqual({});
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    expect(tools.ttlMs).toBeUndefined();
    expect(await client.callTool('echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(await client.callTool('add', { a: 2, b: 3 })).toMatchObject({ structuredContent: { sum: 5 } });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['demo://a', 'demo://b']);
    expect(await client.readResource('demo://a')).toEqual({ contents: [{ uri: 'demo://a', text: 'A' }] });
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'demo://items/{id}', name: 'item' }]);
    expect(await client.readResource('demo://items/7')).toEqual({ contents: [{ uri: 'demo://items/7', text: 'item 7' }] });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
    expect(await client.getPrompt('hello', { who: 'Ada' })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }],
    });
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'who', value: 'A' } })).completion.values,
    ).toEqual(['Ada', 'Alan']);
    expect(
      (await client.complete({ ref: { type: 'ref/resource', uri: 'demo://items/{id}' }, argument: { name: 'id', value: '1' } })).completion
        .values,
    ).toEqual(['1', '10']);
    await client.close();
  });

  test('a missing resource is the server error -32002, passed through intact', async () => {
    const { client } = await legacy();
    const error = await client.readResource('demo://missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32002, data: { uri: 'demo://missing' } });
    await client.close();
  });

  test('modern-only methods fail locally with CAPABILITY_NOT_SUPPORTED, nothing is sent', async () => {
    const { client, written } = await legacy();
    const before = written.length;
    await expect(client.discover()).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    expect(written.length).toBe(before);
    await client.close();
  });

  test('sampling, elicitation and roots handlers answer server requests', async () => {
    const { client } = await legacy({ handlers });
    expect(await client.callTool('greet')).toEqual({ content: [{ type: 'text', text: 'Hello Ada, sampled 10' }] });
    expect(await client.callTool('roots')).toEqual({ content: [{ type: 'text', text: 'file:///work' }] });
    const parallel = await client.callTool('parallel');
    expect(JSON.parse((parallel.content[0] as { text: string }).text)).toEqual({
      roots: [{ uri: 'file:///work', name: 'work' }],
      action: 'accept',
    });
    await client.close();
  });

  test('handlers receive the legacy context', async () => {
    const seen: unknown[] = [];
    const { client } = await legacy({
      handlers: {
        roots: (ctx) => {
          seen.push({ era: ctx.era, protocolVersion: ctx.protocolVersion, requestId: ctx.requestId, aborted: ctx.signal.aborted });
          return { roots: [] };
        },
      },
    });
    await client.callTool('roots');
    expect(seen).toEqual([{ era: 'legacy', protocolVersion: '2025-11-25', requestId: 0, aborted: false }]);
    await client.close();
  });

  test('a tool needing a handler the client lacks reports the server-side failure as isError', async () => {
    const { client } = await legacy();
    const result = await client.callTool('roots');
    expect(result.isError).toBe(true);
    await client.close();
  });

  test('notifyRootsListChanged reaches the server', async () => {
    const { server, log } = demoServer();
    const { client } = await connected(server, { era: 'legacy', handlers });
    await client.notifyRootsListChanged();
    await until(() => log.rootsChanged === 1);
    await client.close();
  });

  test('list_changed notifications and resource updates reach the listeners; unsubscribe stops them', async () => {
    const { server } = demoServer();
    const { client } = await connected(server, { era: 'legacy' });
    const events: string[] = [];
    const offTools = client.onToolsListChanged(() => events.push('tools'));
    client.onPromptsListChanged(() => events.push('prompts'));
    client.onResourcesListChanged(() => events.push('resources'));
    client.onResourceUpdated((params) => events.push(`updated ${params.uri}`));
    const all: string[] = [];
    client.onNotification((n) => all.push(n.method));
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    server.registerPrompt({ name: 'late' }, () => ({ messages: [] }));
    server.registerResource({ uri: 'demo://late', name: 'late' }, (uri) => ({ contents: [{ uri, text: '' }] }));
    await until(() => events.length === 3);
    expect(events.sort()).toEqual(['prompts', 'resources', 'tools']);
    await client.subscribeResource('demo://a');
    server.notifyResourceUpdated('demo://a');
    await until(() => events.includes('updated demo://a'));
    await client.unsubscribeResource('demo://a');
    offTools();
    server.registerTool({ name: 'later', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    server.notifyResourceUpdated('demo://a');
    await until(() => all.filter((m) => m === 'notifications/tools/list_changed').length === 2);
    // A round trip: an update the server would still send for the old subscription has arrived by now.
    await client.ping();
    expect(events.filter((e) => e === 'tools')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('updated'))).toHaveLength(1);
    await client.close();
  });

  test('setLoggingLevel sends logging/setLevel; log messages reach onLogMessage', async () => {
    const { client, written } = await legacy();
    const logs: unknown[] = [];
    client.onLogMessage((params) => logs.push(params));
    await client.setLoggingLevel('warning');
    expect(JSON.parse(written.at(-1)!)).toMatchObject({ method: 'logging/setLevel', params: { level: 'warning' } });
    await client.callTool('noisy');
    await until(() => logs.length === 1);
    expect(logs).toEqual([{ level: 'warning', data: 'warning line' }]);
    await expect(client.setLoggingLevel('loud' as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await client.close();
  });

  test('progress callbacks receive notifications/progress of the call', async () => {
    const { client } = await legacy();
    const progress: unknown[] = [];
    const result = await client.callTool('slow', { steps: 3 }, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    await client.close();
  });

  test('aborting a call sends notifications/cancelled, which the server sees, and rejects REQUEST_CANCELLED', async () => {
    const { server, log } = demoServer();
    const { client, written } = await connected(server, { era: 'legacy' });
    const controller = new AbortController();
    const call = client.callTool('hang', {}, { signal: controller.signal });
    await until(() => log.started.some((call) => call.startsWith('hang#')));
    controller.abort('user gave up');
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await until(() => log.cancelled.length === 1);
    const cancel = JSON.parse(written.at(-1)!);
    expect(cancel).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: cancel.params.requestId, reason: 'Request cancelled: user gave up' },
    });
    expect(log.cancelled).toEqual([`hang#${cancel.params.requestId}`]);
    await client.close();
  });

  test('a timeout rejects REQUEST_TIMEOUT and cancels the request on the server', async () => {
    const { server, log } = demoServer();
    const { client } = await connected(server, { era: 'legacy' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const failure = client.callTool('hang', {}, { timeoutMs: 20 }).catch((error: unknown) => error);
      await until(() => log.started.some((call) => call.startsWith('hang#')));
      await vi.advanceTimersByTimeAsync(20);
      expect(await failure).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      await until(() => log.cancelled.length === 1);
    } finally {
      vi.useRealTimers();
    }
    await client.close();
  });

  test('resetTimeoutOnProgress keeps a call alive while progress arrives', async () => {
    const { client } = await legacy();
    // The first call compiles the tool's schema (ajv is loaded lazily); keep that out of the timed call.
    await client.callTool('slow', { steps: 0 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // 6 steps of 40 ms take longer than the 120 ms timeout, which only progress keeps resetting.
      const call = client.callTool('slow', { steps: 6, ms: 40 }, { timeoutMs: 120, resetTimeoutOnProgress: true, onprogress: () => {} });
      for (let step = 0; step < 6; step++) await vi.advanceTimersByTimeAsync(40);
      expect((await call).content).toEqual([{ type: 'text', text: 'done' }]);
    } finally {
      vi.useRealTimers();
    }
    await client.close();
  });

  test('JSON-RPC batches are accepted only when 2025-03-26 was negotiated', async () => {
    const old = await legacy({ protocolVersion: '2025-03-26' });
    const current = await legacy();
    const batchOf = (id: number) => [{ jsonrpc: '2.0', id, method: 'ping' }];
    const answers: unknown[] = [];
    for (const { clientEnd, serverEnd } of [old, current]) {
      // A batch arriving from the server side, as the server would send it.
      const send = serverEnd.send.bind(serverEnd);
      const original = clientEnd.onmessage;
      answers.length = 0;
      serverEnd.onmessage = (message) => answers.push(message);
      void original;
      await send(batchOf(90) as never);
      await until(() => answers.length === 1);
      const answer = answers[0];
      if (clientEnd === old.clientEnd) expect(answer).toEqual([{ jsonrpc: '2.0', id: 90, result: {} }]);
      else expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
    }
    await old.client.close();
    await current.client.close();
  });
});
