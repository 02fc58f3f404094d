import { MetaKey, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { connected, demoServer, scripted, until } from './client.test-util.js';
import type { InputHandlers } from './options.js';

const handlers: InputHandlers = {
  elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
  sampling: (params) => ({ role: 'assistant', content: { type: 'text', text: `sampled ${params.maxTokens}` }, model: 'm' }),
  roots: () => ({ roots: [{ uri: 'file:///work' }] }),
};

/** A message the client wrote, as the tests read it. */
interface Sent {
  id?: number;
  method?: string;
  params?: { name?: string; inputResponses?: Record<string, unknown>; requestState?: unknown; _meta?: Record<string, unknown> };
}

const sent = (written: string[]): Sent[] => written.map((line) => JSON.parse(line) as Sent);

describe('modern era against McpServer', () => {
  test('every request carries the same _meta; capabilities follow the handlers', async () => {
    const { client, written } = await connected(demoServer().server, { handlers });
    expect(client.era).toBe('modern');
    await client.listTools();
    await client.callTool('echo', { text: 'x' });
    const metas = sent(written).map((m) => m.params?._meta);
    expect(metas).toHaveLength(3);
    for (const meta of metas) {
      expect(meta).toEqual({
        [MetaKey.protocolVersion]: '2026-07-28',
        [MetaKey.clientCapabilities]: { sampling: {}, elicitation: { form: {} }, roots: {} },
        [MetaKey.clientInfo]: { name: 'test-client', version: '1.0.0' },
      });
    }
    await client.close();
  });

  test('URL-mode elicitation, when opted in, is declared in every request, not only in discover', async () => {
    const { client, written } = await connected(demoServer().server, { handlers, elicitation: { url: true } });
    await client.listTools();
    const metas = sent(written).map((m) => m.params?._meta?.[MetaKey.clientCapabilities]);
    expect(metas).toHaveLength(2);
    for (const capabilities of metas) expect(capabilities).toMatchObject({ elicitation: { form: {}, url: {} } });
    expect(client.clientCapabilities).toMatchObject({ elicitation: { form: {}, url: {} } });
    await client.close();
  });

  test('typed methods; results keep resultType, caching hints and _meta', async () => {
    const { client } = await connected(demoServer().server);
    const tools = await client.listTools();
    expect(tools).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(tools._meta?.[MetaKey.serverInfo]).toMatchObject({ name: 'demo' });
    expect(await client.callTool('add', { a: 1, b: 2 })).toMatchObject({ resultType: 'complete', structuredContent: { sum: 3 } });
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(['demo://a', 'demo://b']);
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['demo://items/{id}']);
    expect((await client.readResource('demo://b')).contents).toEqual([{ uri: 'demo://b', blob: 'Qg==' }]);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(['hello']);
    expect((await client.getPrompt('hello', { who: 'Bo' })).messages[0]!.content).toEqual({ type: 'text', text: 'Hello Bo' });
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'who', value: 'G' } })).completion.values,
    ).toEqual(['Grace']);
    const discovered = await client.discover();
    expect(discovered.supportedVersions[0]).toBe('2026-07-28');
    await expect(client.readResource('demo://missing')).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  test('legacy-only methods fail locally; notifyRootsListChanged is a no-op', async () => {
    const { client, written } = await connected(demoServer().server, { handlers });
    const before = written.length;
    await expect(client.ping()).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
      message: expect.stringMatching(/ping.*2026-07-28/),
    });
    await client.notifyRootsListChanged();
    expect(written.length).toBe(before);
    await client.close();
  });

  test('a multi-round tool: elicitation, then sampling, each retry with a new id, inputResponses and the echoed requestState', async () => {
    const { client, written } = await connected(demoServer().server, { handlers });
    const result = await client.callTool('greet');
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello Ada, sampled 10' }] });
    const calls = sent(written).filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
    expect(calls[0]!.params).not.toHaveProperty('requestState');
    expect(calls[0]!.params).not.toHaveProperty('inputResponses');
    expect(calls[1]!.params!.inputResponses).toEqual({ 'elicit-0': { action: 'accept', content: { name: 'Ada' } } });
    expect(calls[2]!.params!.inputResponses).toEqual({
      'sample-1': { role: 'assistant', content: { type: 'text', text: 'sampled 10' }, model: 'm' },
    });
    for (const call of calls) expect(call.params).toMatchObject({ name: 'greet' });
    expect(typeof calls[1]!.params!.requestState).toBe('string');
    expect(calls[2]!.params!.requestState).not.toBe(calls[1]!.params!.requestState);
    await client.close();
  });

  test('inputs of one round run in parallel and are answered together', async () => {
    let running = 0;
    let peak = 0;
    // Each handler answers only once both are running: sequential handlers would never get there.
    const slow = async <T>(value: T): Promise<T> => {
      running++;
      peak = Math.max(peak, running);
      await until(() => running === 2 || peak === 2);
      running--;
      return value;
    };
    const { client, written } = await connected(demoServer().server, {
      handlers: { roots: () => slow({ roots: [{ uri: 'file:///p' }] }), elicitation: () => slow({ action: 'decline' as const }) },
    });
    const result = await client.callTool('parallel');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ roots: [{ uri: 'file:///p' }], action: 'decline' });
    expect(peak).toBe(2);
    const retry = sent(written).filter((m) => m.method === 'tools/call')[1]!;
    expect(Object.keys(retry.params!.inputResponses!).sort()).toEqual(['elicit-1', 'roots-0']);
    await client.close();
  });

  test('handlers get the modern context: key, origin, era', async () => {
    const contexts: unknown[] = [];
    const { client } = await connected(demoServer().server, {
      handlers: {
        roots: (ctx) => {
          contexts.push({ era: ctx.era, key: ctx.inputKey, origin: ctx.origin, version: ctx.protocolVersion });
          return { roots: [] };
        },
      },
    });
    await client.callTool('roots', {});
    expect(contexts).toEqual([
      { era: 'modern', key: 'roots-0', origin: { method: 'tools/call', params: { name: 'roots', arguments: {} } }, version: '2026-07-28' },
    ]);
    await client.close();
  });

  test('an input kind without a handler: the server refuses (-32021) when undeclared; a rogue request fails CAPABILITY_NOT_SUPPORTED', async () => {
    const { client } = await connected(demoServer().server, { handlers: { roots: handlers.roots! } });
    await expect(client.callTool('greet')).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    await client.close();
    const rogue = await scripted((method) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
      return {
        resultType: 'input_required',
        inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } } },
        requestState: 'st',
      };
    });
    const other = new McpClient({ name: 'c', version: '1' });
    await other.connect(rogue.transport);
    await expect(other.callTool('x')).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
      message: expect.stringMatching(/sampling handler/),
    });
    await other.close();
  });

  test('requestState is echoed exactly and never invented; load shedding retries after a backoff; rounds are bounded', async () => {
    let round = 0;
    const fake = await scripted((method, params) => {
      if (method === 'server/discover')
        return { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {}, resources: {} } };
      round++;
      if (params?.name === 'forever') return { resultType: 'input_required', requestState: `s${round}` };
      if (round === 1) return { resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } };
      if (round === 2) return { resultType: 'input_required', requestState: 'opaque "state" ✓' };
      return { content: [{ type: 'text', text: `done after ${round}` }] };
    });
    const client = new McpClient({ name: 'c', version: '1' }, { handlers, maxInputRounds: 4 });
    await client.connect(fake.transport);
    const started = Date.now();
    expect((await client.callTool('t')).content).toEqual([{ type: 'text', text: 'done after 3' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    const calls = fake.received.filter((m) => (m as { method?: string }).method === 'tools/call') as Array<{
      params: Record<string, unknown>;
    }>;
    expect(calls[1]!.params).toMatchObject({ inputResponses: { r: { roots: [{ uri: 'file:///work' }] } } });
    expect(calls[1]!.params).not.toHaveProperty('requestState');
    expect(calls[2]!.params!.requestState).toBe('opaque "state" ✓');
    expect(calls[2]!.params).not.toHaveProperty('inputResponses');
    round = 0;
    await expect(client.callTool('forever')).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION', details: { rounds: 4 } });
    await client.close();
  });

  test('unknown or misplaced resultType is INVALID_RESULT; a missing resultType is complete', async () => {
    const fake = await scripted((method) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {} } };
      if (method === 'tools/list') return { resultType: 'input_required', requestState: 'x' };
      if (method === 'prompts/list') return { prompts: [] };
      return { resultType: 'task', task: {} };
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(fake.transport);
    await expect(client.callTool('t')).rejects.toMatchObject({ code: 'INVALID_RESULT', message: expect.stringMatching(/"task"/) });
    await expect(client.listTools()).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    expect(await client.listPrompts()).toEqual({ prompts: [] });
    await client.close();
  });

  test('capability gates follow a fresh discover: a method allowed before is refused once the server drops its capability', async () => {
    let capabilities: Record<string, unknown> = { tools: {}, prompts: {} };
    const fake = await scripted((method) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities };
      if (method === 'prompts/list') return { prompts: [] };
      return { tools: [] };
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(fake.transport);
    expect(await client.listPrompts()).toEqual({ prompts: [] });
    capabilities = { tools: {} };
    await client.discover();
    await expect(client.listPrompts()).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', details: { capability: 'prompts' } });
    capabilities = { tools: {}, prompts: {} };
    await client.discover();
    expect(await client.listPrompts()).toEqual({ prompts: [] });
    await client.close();
  });

  test('aborting during an input round stops the exchange (handler signal aborted, no retry sent)', async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const { client, written } = await connected(demoServer().server, {
      handlers: {
        ...handlers,
        elicitation: (_params, ctx) => {
          handlerSignal = ctx.signal;
          controller.abort('stop');
          return new Promise(() => {});
        },
      },
    });
    await expect(client.callTool('greet', {}, { signal: controller.signal })).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(handlerSignal?.aborted).toBe(true);
    expect(sent(written).filter((m) => m.method === 'tools/call')).toHaveLength(1);
    await client.close();
  });

  test('setLoggingLevel puts the level in later requests only; logs arrive on the call', async () => {
    const { client, written } = await connected(demoServer().server);
    const logs: unknown[] = [];
    client.onLogMessage((params) => logs.push(params.data));
    await client.callTool('noisy');
    await client.setLoggingLevel('info');
    await client.callTool('noisy');
    await until(() => logs.length === 1);
    expect(logs).toEqual(['warning line']);
    const calls = sent(written).filter((m) => m.method === 'tools/call');
    expect(calls[0]!.params!._meta).not.toHaveProperty(MetaKey.logLevel);
    expect(calls[1]!.params!._meta![MetaKey.logLevel]).toBe('info');
    expect(sent(written).some((m) => m.method === 'logging/setLevel')).toBe(false);
    await client.close();
  });

  test('progress and cancellation work the same in the modern era', async () => {
    const { server, log } = demoServer();
    const { client, written } = await connected(server);
    const progress: number[] = [];
    await client.callTool('slow', { steps: 2 }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    const controller = new AbortController();
    const call = client.callTool('hang', {}, { signal: controller.signal });
    await until(() => log.started.some((call) => call.startsWith('hang#')));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await until(() => log.cancelled.length === 1);
    expect(sent(written).at(-1)).toMatchObject({ method: 'notifications/cancelled' });
    await client.close();
  });

  test('list results are reused while ttlMs says fresh, invalidated by list_changed, never for input rounds', async () => {
    const { server } = demoServer({ caching: { default: { ttlMs: 60_000, cacheScope: 'private' } } });
    const { client, written } = await connected(server, { handlers });
    const count = (method: string) => sent(written).filter((m) => m.method === method).length;
    const first = await client.listTools();
    expect(await client.listTools()).toBe(first);
    expect(count('tools/list')).toBe(1);
    await client.listTools({}, { fresh: true });
    expect(count('tools/list')).toBe(2);
    await client.readResource('demo://a');
    await client.readResource('demo://a');
    expect(count('resources/read')).toBe(1);
    // list_changed reaches the client on its managed listen stream once someone listens for it.
    const changed: string[] = [];
    client.onToolsListChanged(() => changed.push('tools'));
    await until(() => sent(written).some((m) => m.method === 'subscriptions/listen'));
    // A round trip after the listen request: the server has opened the stream when its answer arrives.
    await client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'who', value: '' } });
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await until(() => changed.length === 1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('late');
    expect(count('tools/list')).toBe(3);
    await client.close();
  });

  test('cacheResults: false never reuses a result', async () => {
    const { server } = demoServer({ caching: { default: { ttlMs: 60_000, cacheScope: 'public' } } });
    const { client, written } = await connected(server, { cacheResults: false });
    await client.listTools();
    await client.listTools();
    expect(sent(written).filter((m) => m.method === 'tools/list')).toHaveLength(2);
    await client.close();
  });

  test('an RpcError answer passes through with code, message and data', async () => {
    const { client } = await connected(demoServer().server);
    const error = await client.callTool('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool: 'nope'" });
    await client.close();
  });
});
