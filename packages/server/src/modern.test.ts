import { MetaKey } from '@wiremcp/protocol';
import { describe, expect, test, vi } from 'vitest';
import { serverResultMeta, stampModernResult } from './modern-envelope.js';
import { McpServer } from './mcp-server.js';
import { inputRequired, rawClient, text } from './server.test-util.js';

const SERVER_INFO = { [MetaKey.serverInfo]: { name: 'modern-server', version: '2.0.0' } };

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const s = new McpServer(
    { name: 'modern-server', version: '2.0.0' },
    { caching: { default: { ttlMs: 60_000, cacheScope: 'public' } }, ...options },
  );
  s.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({
      content: [{ type: 'text', text: args.text ?? '' }],
    }),
  );
  s.registerTool({ name: 'greet', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const who = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const mood = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'mood?' } }], maxTokens: 10 });
    const name = who.content?.name;
    return { content: [{ type: 'text', text: `Hello ${String(name)}, ${(mood.content as { text: string }).text}` }] };
  });
  s.registerTool({ name: 'both', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const [roots, who] = await Promise.all([
      ctx.listRoots(),
      ctx.elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } }),
    ]);
    return { content: [{ type: 'text', text: JSON.stringify({ roots, who }) }] };
  });
  s.registerResource({ uri: 'demo://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  return s;
}

describe('server/discover and the per-request envelope', () => {
  test('discover answers versions, capabilities, caching hints and serverInfo', async () => {
    const client = await rawClient(server({ instructions: 'Use echo.' }));
    expect(await client.modern('server/discover')).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { logging: {}, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
      instructions: 'Use echo.',
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: SERVER_INFO,
    });
  });

  test('server/discover without _meta is a -32602 naming the missing field', async () => {
    const client = await rawClient(server());
    await expect(client.request('server/discover', {})).rejects.toMatchObject({
      code: -32602,
      message: `Missing required _meta field "${MetaKey.protocolVersion}"`,
    });
  });

  test('missing clientCapabilities is -32602; an unsupported version is -32022 with supported and requested', async () => {
    const client = await rawClient(server());
    await expect(client.peer.request('tools/list', { _meta: { [MetaKey.protocolVersion]: '2026-07-28' } })).rejects.toMatchObject({
      code: -32602,
      message: `Missing required _meta field "${MetaKey.clientCapabilities}"`,
    });
    await expect(client.modern('tools/list', {}, { [MetaKey.protocolVersion]: '1900-01-01' })).rejects.toMatchObject({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '1900-01-01' },
    });
  });

  test('an invalid log level in _meta is -32602', async () => {
    const client = await rawClient(server());
    await expect(client.modern('tools/list', {}, { [MetaKey.logLevel]: 'verbose' })).rejects.toMatchObject({ code: -32602 });
  });

  test('legacy-only methods do not exist in 2026-07-28', async () => {
    const client = await rawClient(server());
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
      await expect(client.modern(method, { level: 'info', uri: 'demo://a' })).rejects.toMatchObject({ code: -32601 });
    }
  });

  test('results carry resultType, serverInfo and, for cacheable methods, caching hints', async () => {
    const client = await rawClient(server());
    expect(await client.modern('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
      _meta: SERVER_INFO,
    });
    const list = await client.modern('tools/list');
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', _meta: SERVER_INFO });
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'greet', 'both']);
    expect(await client.modern('resources/read', { uri: 'demo://a' })).toEqual({
      resultType: 'complete',
      contents: [{ uri: 'demo://a', text: 'A' }],
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: SERVER_INFO,
    });
  });

  test('a missing resource is -32602 in 2026-07-28', async () => {
    const client = await rawClient(server());
    await expect(client.modern('resources/read', { uri: 'demo://missing' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'demo://missing' },
    });
  });

  test('a modern-only server refuses initialize, naming the versions it speaks', async () => {
    const client = await rawClient(server({ protocolVersions: ['2026-07-28'] }));
    await expect(client.initialize('2025-11-25')).rejects.toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
    expect((await client.modern('server/discover')).supportedVersions).toEqual(['2026-07-28']);
  });

  test('legacy and modern requests are served on the same connection', async () => {
    const client = await rawClient(server());
    await client.initialize('2025-06-18');
    expect((await client.request('tools/list')).resultType).toBeUndefined();
    expect((await client.modern('tools/list')).resultType).toBe('complete');
    expect(await client.request('ping')).toEqual({});
  });

  test('logging follows the request _meta log level only', async () => {
    const s = server();
    s.registerTool({ name: 'noisy', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.log('info', 'info line');
      await ctx.log('error', 'error line');
      return { content: [] };
    });
    const client = await rawClient(s);
    await client.modern('tools/call', { name: 'noisy', arguments: {} });
    await client.modern('tools/call', { name: 'noisy', arguments: {} }, { [MetaKey.logLevel]: 'error' });
    const logs = client.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params);
    expect(logs).toEqual([{ level: 'error', data: 'error line' }]);
  });
});

describe('input-required results (MRTR)', () => {
  const caps = { [MetaKey.clientCapabilities]: { elicitation: {}, sampling: {}, roots: {} } };

  test('elicit then sample: two rounds, answers carried across rounds, then the complete result', async () => {
    const client = await rawClient(server());
    const first = inputRequired(await client.modern('tools/call', { name: 'greet', arguments: {} }, caps));
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['elicit-0']);
    expect(first.inputRequests['elicit-0']?.method).toBe('elicitation/create');
    expect(typeof first.requestState).toBe('string');
    expect(first.ttlMs).toBeUndefined();

    const second = inputRequired(
      await client.modern(
        'tools/call',
        {
          name: 'greet',
          arguments: {},
          inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Ada' } } },
          requestState: first.requestState,
        },
        caps,
      ),
    );
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['sample-1']);

    const third = await client.modern(
      'tools/call',
      {
        name: 'greet',
        arguments: {},
        inputResponses: { 'sample-1': { role: 'assistant', content: { type: 'text', text: 'cheerful' }, model: 'm' } },
        requestState: second.requestState,
      },
      caps,
    );
    expect(third).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Hello Ada, cheerful' }], _meta: SERVER_INFO });
  });

  test('inputs requested in parallel come in one round', async () => {
    const client = await rawClient(server());
    const first = inputRequired(await client.modern('tools/call', { name: 'both', arguments: {} }, caps));
    expect(Object.keys(first.inputRequests).sort()).toEqual(['elicit-1', 'roots-0']);
    expect(first.inputRequests['roots-0']).toEqual({ method: 'roots/list', params: {} });
    const done = await client.modern(
      'tools/call',
      {
        name: 'both',
        arguments: {},
        inputResponses: { 'roots-0': { roots: [{ uri: 'file:///w' }] }, 'elicit-1': { action: 'decline' } },
        requestState: first.requestState,
      },
      caps,
    );
    expect(JSON.parse(text(done))).toEqual({ roots: { roots: [{ uri: 'file:///w' }] }, who: { action: 'decline' } });
  });

  test('a handler can name its inputs: the key is used in inputRequests and read back from inputResponses', async () => {
    const s = server();
    s.registerTool({ name: 'named', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      const [who, roots] = await Promise.all([
        ctx.elicit(
          { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
          { key: 'user_name' },
        ),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      const answer = await ctx.sample({ messages: [], maxTokens: 5 }, { key: 'capital_question' });
      return { content: [{ type: 'text', text: JSON.stringify({ who, roots, answer }) }] };
    });
    const client = await rawClient(s);
    const first = inputRequired(await client.modern('tools/call', { name: 'named', arguments: {} }, caps));
    expect(Object.keys(first.inputRequests).sort()).toEqual(['client_roots', 'user_name']);
    const second = inputRequired(
      await client.modern(
        'tools/call',
        {
          name: 'named',
          arguments: {},
          inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } }, client_roots: { roots: [] } },
          requestState: first.requestState,
        },
        caps,
      ),
    );
    expect(Object.keys(second.inputRequests)).toEqual(['capital_question']);
    const done = await client.modern(
      'tools/call',
      {
        name: 'named',
        arguments: {},
        inputResponses: { capital_question: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' } },
        requestState: second.requestState,
      },
      caps,
    );
    expect(JSON.parse(text(done))).toEqual({
      who: { action: 'accept', content: { name: 'Ada' } },
      roots: { roots: [] },
      answer: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
    });
  });

  test('a tampered, foreign or orphaned requestState is refused with -32602', async () => {
    const client = await rawClient(server());
    const first = inputRequired(await client.modern('tools/call', { name: 'greet', arguments: {} }, caps));
    const [body, mac] = (first.requestState as string).split('.');
    const tampered = `${body!.slice(0, -2)}AA.${mac}`;
    await expect(client.modern('tools/call', { name: 'greet', arguments: {}, requestState: tampered }, caps)).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid requestState: integrity check failed',
    });
    await expect(
      client.modern('tools/call', { name: 'greet', arguments: { other: 1 }, requestState: first.requestState }, caps),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid requestState: it was issued for a different request',
    });
    const otherServer = await rawClient(server());
    await expect(
      otherServer.modern('tools/call', { name: 'greet', arguments: {}, requestState: first.requestState }, caps),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  test('answers sent without a requestState count as first-round answers; missing ones are asked again', async () => {
    const client = await rawClient(server());
    const upFront = inputRequired(
      await client.modern(
        'tools/call',
        {
          name: 'greet',
          arguments: {},
          inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Bo' } }, unrelated: { x: 1 } },
        },
        caps,
      ),
    );
    expect(upFront.resultType).toBe('input_required');
    expect(Object.keys(upFront.inputRequests)).toEqual(['sample-1']);
    const empty = inputRequired(await client.modern('tools/call', { name: 'greet', arguments: {}, inputResponses: {} }, caps));
    expect(Object.keys(empty.inputRequests)).toEqual(['elicit-0']);
    await expect(client.modern('tools/call', { name: 'greet', arguments: {}, inputResponses: [] }, caps)).rejects.toMatchObject({
      code: -32602,
    });
  });

  test('a client without the capability gets -32021 naming it', async () => {
    const client = await rawClient(server());
    await expect(client.modern('tools/call', { name: 'greet', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  test('an expired requestState is refused', async () => {
    // Only the clock is faked: the state records when it was issued, and the retry comes after its lifetime.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const client = await rawClient(server({ requestState: { ttlMs: 1000 } }));
      const first = inputRequired(await client.modern('tools/call', { name: 'greet', arguments: {} }, caps));
      vi.setSystemTime(Date.now() + 1001);
      await expect(
        client.modern('tools/call', { name: 'greet', arguments: {}, requestState: first.requestState }, caps),
      ).rejects.toMatchObject({
        code: -32602,
        message: 'Invalid requestState: expired, start the request again',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('stampModernResult', () => {
  const info = serverResultMeta({ name: 'modern-server', version: '2.0.0' });
  test('resultType first, the result as it was, _meta with the server info; the input is not modified', () => {
    const result = { content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } };
    const stamped = stampModernResult(result, info, undefined);
    expect(Object.keys(stamped)).toEqual(['resultType', 'content', 'structuredContent', '_meta']);
    expect(stamped).toEqual({
      resultType: 'complete',
      ...result,
      _meta: { [MetaKey.serverInfo]: { name: 'modern-server', version: '2.0.0' } },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } });
  });
  test("a handler's _meta and resultType keep their place; its _meta keys are kept", () => {
    const result = { _meta: { trace: 't' }, resultType: 'input_required', inputRequests: {} };
    const stamped = stampModernResult(result, info, { ttlMs: 5, cacheScope: 'private' });
    expect(Object.keys(stamped)).toEqual(['resultType', '_meta', 'inputRequests']);
    expect(stamped._meta).toEqual({ trace: 't', [MetaKey.serverInfo]: { name: 'modern-server', version: '2.0.0' } });
    expect(stamped).not.toHaveProperty('ttlMs');
    expect(result._meta).toEqual({ trace: 't' });
  });
  test('complete results of cacheable methods get the caching hint unless they set their own', () => {
    expect(stampModernResult({ tools: [] }, info, { ttlMs: 5, cacheScope: 'private' })).toMatchObject({ ttlMs: 5, cacheScope: 'private' });
    expect(stampModernResult({ tools: [], ttlMs: 1 }, info, { ttlMs: 5, cacheScope: 'private' })).toMatchObject({
      ttlMs: 1,
      cacheScope: 'private',
    });
  });
});
