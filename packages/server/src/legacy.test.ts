import { RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { rawClient, text } from './server.test-util.js';

function grammarLike(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 'test-server', version: '1.2.3', title: 'Test Server', description: 'for tests' }, options);
  server.registerTool(
    {
      name: 'conjugate',
      description: 'Conjugates a verb',
      inputSchema: {
        type: 'object',
        properties: { verb: { type: 'string' }, tense: { type: 'string', enum: ['past simple'] } },
        required: ['verb', 'tense'],
      },
      outputSchema: { type: 'object', properties: { form: { type: 'string' } }, required: ['form'] },
    },
    (args: { verb: string }) => {
      if (args.verb === 'run') throw new Error("verb 'run' is out of scope (§A13)");
      // A result that breaks the outputSchema on purpose (the types would refuse it): the server must catch it.
      if (args.verb === 'bad') return { structuredContent: { form: 42 as unknown as string } };
      return { content: [{ type: 'text', text: 'ate' }], structuredContent: { form: 'ate' }, isError: false };
    },
  );
  return server;
}

describe('initialize', () => {
  test('answers the requested version when supported, with derived capabilities and serverInfo', async () => {
    const client = await rawClient(grammarLike({ instructions: 'Be brief.' }));
    const result = await client.initialize('2025-06-18');
    expect(result).toEqual({
      protocolVersion: '2025-06-18',
      capabilities: { logging: {}, tools: { listChanged: true } },
      serverInfo: { name: 'test-server', title: 'Test Server', version: '1.2.3' },
      instructions: 'Be brief.',
    });
  });

  test('answers the newest legacy version to an unknown or modern request', async () => {
    expect((await (await rawClient(grammarLike())).initialize('1999-01-01')).protocolVersion).toBe('2025-11-25');
    expect((await (await rawClient(grammarLike())).initialize('2026-07-28')).protocolVersion).toBe('2025-11-25');
  });

  test('serverInfo carries only the fields of the negotiated revision', async () => {
    const old = await (await rawClient(grammarLike())).initialize('2024-11-05');
    expect(old.serverInfo).toEqual({ name: 'test-server', version: '1.2.3' });
    const latest = await (await rawClient(grammarLike())).initialize('2025-11-25');
    expect(latest.serverInfo).toEqual({ name: 'test-server', version: '1.2.3', title: 'Test Server', description: 'for tests' });
  });

  test('requests before initialize are refused with a message naming both ways in; ping is allowed', async () => {
    const client = await rawClient(grammarLike());
    await expect(client.request('ping')).resolves.toEqual({});
    const error = (await client.request('tools/list').catch((e: unknown) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/initialize/);
    expect(error.message).toMatch(/io\.modelcontextprotocol\/protocolVersion/);
  });

  test('a second initialize and a malformed one are refused', async () => {
    const client = await rawClient(grammarLike());
    await expect(client.peer.request('initialize', { capabilities: {} })).rejects.toMatchObject({ code: -32602 });
    await client.initialize();
    await expect(client.initialize()).rejects.toMatchObject({ code: -32600 });
  });

  test('unknown methods answer -32601; undeclared capabilities answer -32601', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    await expect(client.request('nope/nope')).rejects.toMatchObject({ code: -32601 });
    await expect(client.request('prompts/list')).rejects.toMatchObject({ code: -32601 });
    await expect(client.request('resources/read', { uri: 'x:y' })).rejects.toMatchObject({ code: -32601 });
  });
});

describe('tools', () => {
  test('list, call, structured output', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    const list = await client.request('tools/list');
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['conjugate']);
    const result = await client.request('tools/call', { name: 'conjugate', arguments: { verb: 'eat', tense: 'past simple' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ate' }], structuredContent: { form: 'ate' }, isError: false });
  });

  test('a tool failure is isError with the readable text', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    const result = await client.request('tools/call', { name: 'conjugate', arguments: { verb: 'run', tense: 'past simple' } });
    expect(result).toEqual({ content: [{ type: 'text', text: "verb 'run' is out of scope (§A13)" }], isError: true });
  });

  test('arguments that fail inputSchema are isError naming the problems', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    const result = await client.request('tools/call', { name: 'conjugate', arguments: { verb: 1, tense: 'future' } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toContain("Invalid arguments for tool 'conjugate'");
    expect(text(result)).toContain('/verb: must be string');
    expect(text(result)).toContain('/tense: must be equal to one of the allowed values');
  });

  test('structuredContent that violates outputSchema is reported as isError', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    const result = await client.request('tools/call', { name: 'conjugate', arguments: { verb: 'bad', tense: 'past simple' } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toMatch(/does not match its outputSchema: \/form: must be string/);
  });

  test('an unknown tool is a -32602 protocol error', async () => {
    const client = await rawClient(grammarLike());
    await client.initialize();
    await expect(client.request('tools/call', { name: 'unkn_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: 'unkn_tool'",
    });
  });

  test('structuredContent without content gets a JSON text block', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'sum', inputSchema: { type: 'object' } }, () => ({ structuredContent: { sum: 3 } }));
    const client = await rawClient(server);
    await client.initialize();
    expect(await client.request('tools/call', { name: 'sum', arguments: {} })).toEqual({
      structuredContent: { sum: 3 },
      content: [{ type: 'text', text: '{"sum":3}' }],
    });
  });

  test('content blocks an older revision lacks become text: audio before 2025-03-26, resource links before 2025-06-18', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const blocks = [
      { type: 'text' as const, text: 'hi' },
      { type: 'audio' as const, data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource_link' as const, uri: 'file:///a.txt', name: 'a', description: 'the a file' },
    ];
    server.registerTool({ name: 'media', inputSchema: { type: 'object' } }, () => ({ content: blocks }));
    const results: Record<string, unknown[]> = {};
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18']) {
      const client = await rawClient(server);
      await client.initialize(version);
      results[version] = ((await client.request('tools/call', { name: 'media', arguments: {} })) as { content: unknown[] }).content;
    }
    expect(results['2024-11-05']).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'text', text: '[audio (audio/wav) omitted: not supported by protocol version 2024-11-05]' },
      { type: 'text', text: 'Resource: a <file:///a.txt> — the a file' },
    ]);
    expect(results['2025-03-26']).toEqual([blocks[0], blocks[1], { type: 'text', text: 'Resource: a <file:///a.txt> — the a file' }]);
    expect(results['2025-06-18']).toEqual(blocks);
  });

  test('pagination with opaque cursors; an invalid cursor is -32602', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { pageSize: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) server.registerTool({ name, inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const client = await rawClient(server);
    await client.initialize();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request('tools/list', cursor ? { cursor } : {});
      names.push(...page.tools.map((t: { name: string }) => t.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages).toBe(3);
    await expect(client.request('tools/list', { cursor: 'garbage' })).rejects.toMatchObject({ code: -32602, message: 'Invalid cursor' });
  });

  test('adding, disabling and removing tools at runtime sends one list_changed per change burst', async () => {
    const server = grammarLike();
    const client = await rawClient(server);
    await client.initialize();
    await client.settle();
    const extra = server.registerTool({ name: 'extra', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    extra.disable();
    await client.settle();
    expect(client.notifications.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(1);
    expect((await client.request('tools/list')).tools).toHaveLength(1);
    extra.enable();
    await client.settle();
    expect((await client.request('tools/list')).tools).toHaveLength(2);
    extra.remove();
    await client.settle();
    expect(client.notifications.filter((n) => n.method === 'notifications/tools/list_changed')).toHaveLength(3);
  });
});

describe('resources, prompts, completion', () => {
  function resourceServer() {
    const server = new McpServer({ name: 's', version: '1' }, { pageSize: 10 });
    server.registerResource({ uri: 'grammar://a13', name: 'a13', mimeType: 'text/markdown' }, (uri) => ({
      contents: [{ uri, mimeType: 'text/markdown', text: '# A13' }],
    }));
    server.registerResourceTemplate(
      { uriTemplate: 'grammar://a13/{verb}', name: 'verb' },
      (uri, vars) => {
        if (vars.verb === 'run') throw new Error('unreachable');
        return { contents: [{ uri, text: `# ${String(vars.verb)}` }] };
      },
      { complete: { verb: (value) => ['eat', 'be', 'write'].filter((v) => v.startsWith(value)) } },
    );
    server.registerPrompt(
      { name: 'explain', arguments: [{ name: 'verb', required: true }, { name: 'tense' }] },
      (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Explain ${args.verb} ${args.tense ?? ''}`.trim() } }] }),
      { complete: { verb: () => ({ values: Array.from({ length: 150 }, (_, i) => `v${i}`) }) } },
    );
    return server;
  }

  test('capabilities, list, templates, read', async () => {
    const client = await rawClient(resourceServer());
    const init = await client.initialize('2025-11-25');
    expect(init.capabilities).toEqual({
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    expect((await client.request('resources/list')).resources).toEqual([{ uri: 'grammar://a13', name: 'a13', mimeType: 'text/markdown' }]);
    expect((await client.request('resources/templates/list')).resourceTemplates).toEqual([
      { uriTemplate: 'grammar://a13/{verb}', name: 'verb' },
    ]);
    expect(await client.request('resources/read', { uri: 'grammar://a13/eat' })).toEqual({
      contents: [{ uri: 'grammar://a13/eat', text: '# eat' }],
    });
  });

  test('a missing resource is -32002 in legacy revisions', async () => {
    const client = await rawClient(resourceServer());
    await client.initialize();
    await expect(client.request('resources/read', { uri: 'other://x' })).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'other://x' },
    });
  });

  test('completions of template variables and prompt arguments, capped at 100 with total and hasMore', async () => {
    const client = await rawClient(resourceServer());
    await client.initialize();
    expect(
      await client.request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'grammar://a13/{verb}' },
        argument: { name: 'verb', value: 'e' },
      }),
    ).toEqual({
      completion: { values: ['eat'], total: 1, hasMore: false },
    });
    const many = await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'explain' },
      argument: { name: 'verb', value: '' },
    });
    expect(many.completion.values).toHaveLength(100);
    expect(many.completion.total).toBe(150);
    expect(many.completion.hasMore).toBe(true);
    await expect(
      client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  test('prompts: get, missing required argument, unknown prompt', async () => {
    const client = await rawClient(resourceServer());
    await client.initialize();
    expect(await client.request('prompts/get', { name: 'explain', arguments: { verb: 'eat' } })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Explain eat' } }],
    });
    await expect(client.request('prompts/get', { name: 'explain', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "Missing required argument 'verb' for prompt 'explain'",
    });
    await expect(client.request('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  test('resources/subscribe then notifyResourceUpdated; unsubscribe stops it', async () => {
    const server = resourceServer();
    const client = await rawClient(server);
    await client.initialize();
    await client.request('resources/subscribe', { uri: 'grammar://a13' });
    server.notifyResourceUpdated('grammar://a13');
    server.notifyResourceUpdated('grammar://other');
    await client.settle();
    expect(client.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'grammar://a13' } },
    ]);
    await client.request('resources/unsubscribe', { uri: 'grammar://a13' });
    server.notifyResourceUpdated('grammar://a13');
    await client.settle();
    expect(client.notifications.filter((n) => n.method === 'notifications/resources/updated')).toHaveLength(1);
  });
});

describe('logging, progress, client requests, batches', () => {
  test('logging/setLevel filters notifications/message; an invalid level is -32602', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'noisy', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.log('debug', 'debug detail');
      await ctx.log('warning', { disk: 'low' }, 'storage');
      return { content: [] };
    });
    const client = await rawClient(server);
    await client.initialize();
    await client.request('tools/call', { name: 'noisy', arguments: {} });
    await client.request('logging/setLevel', { level: 'warning' });
    await client.request('tools/call', { name: 'noisy', arguments: {} });
    await expect(client.peer.request('logging/setLevel', { level: 'loud' })).rejects.toMatchObject({ code: -32602 });
    const logs = client.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params);
    expect(logs).toEqual([
      { level: 'debug', data: 'debug detail' },
      { level: 'warning', logger: 'storage', data: { disk: 'low' } },
      { level: 'warning', logger: 'storage', data: { disk: 'low' } },
    ]);
  });

  test('a tool asks the client to elicit, sample and list roots through real requests', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      const sampled = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
      const roots = await ctx.listRoots();
      return { content: [{ type: 'text', text: JSON.stringify({ answer, sampled, roots }) }] };
    });
    const client = await rawClient(server);
    client.peer.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    client.peer.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant',
      content: { type: 'text', text: 'hello' },
      model: 'm',
    }));
    client.peer.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
    await client.initialize('2025-11-25', { elicitation: {}, sampling: {}, roots: { listChanged: true } });
    const result = await client.request('tools/call', { name: 'ask', arguments: {} });
    expect(JSON.parse(text(result))).toEqual({
      answer: { action: 'accept', content: { name: 'Ada' } },
      sampled: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' },
      roots: { roots: [{ uri: 'file:///work' }] },
    });
  });

  test('asking for an undeclared client capability fails the tool with readable text', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'ask', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
      return { content: [] };
    });
    const client = await rawClient(server);
    await client.initialize('2025-11-25', {});
    const result = await client.request('tools/call', { name: 'ask', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'The client did not declare the elicitation capability' }], isError: true });
  });

  test('input requests follow the negotiated revision: no elicitation before 2025-06-18, no URL mode or sampling tools before 2025-11-25', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'form', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
      return { content: [{ type: 'text', text: 'asked' }] };
    });
    server.registerTool({ name: 'url', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' });
      return { content: [{ type: 'text', text: 'asked' }] };
    });
    server.registerTool({ name: 'sample', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.sample({ messages: [], maxTokens: 5, tools: [{ name: 't', inputSchema: { type: 'object' } }] });
      return { content: [{ type: 'text', text: 'asked' }] };
    });
    const caps = { elicitation: { form: {}, url: {} }, sampling: { tools: {} } };
    const old = await rawClient(server);
    await old.initialize('2025-03-26', caps);
    expect(await old.request('tools/call', { name: 'form', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Elicitation does not exist in protocol version 2025-03-26' }],
      isError: true,
    });
    const mid = await rawClient(server);
    mid.peer.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    await mid.initialize('2025-06-18', caps);
    expect(text(await mid.request('tools/call', { name: 'form', arguments: {} }))).toBe('asked');
    expect(text(await mid.request('tools/call', { name: 'url', arguments: {} }))).toBe(
      'URL-mode elicitation does not exist in protocol version 2025-06-18',
    );
    expect(text(await mid.request('tools/call', { name: 'sample', arguments: {} }))).toBe(
      'Sampling with tools does not exist in protocol version 2025-06-18',
    );
  });

  test('progress notifications reach the client for a request with a progress token', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool({ name: 'work', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await ctx.sendProgress(1, 2, 'half');
      await ctx.sendProgress(2, 2, 'done');
      return { content: [] };
    });
    const client = await rawClient(server);
    await client.initialize();
    const seen: unknown[] = [];
    await client.peer.request('tools/call', { name: 'work', arguments: {} }, { onprogress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2, message: 'done' },
    ]);
  });

  test('2025-03-26 sessions accept batches; initialize inside a batch is refused', async () => {
    const server = grammarLike();
    const client = await rawClient(server, { batches: true });
    const init = await client.initialize('2025-03-26');
    expect(init.protocolVersion).toBe('2025-03-26');
    await client.settle();
    const answers: unknown[] = [];
    const original = client.peer.receive.bind(client.peer);
    client.peer.receive = (message, info) => {
      if (Array.isArray(message)) answers.push(message);
      original(message, info);
    };
    await client.transport.send([
      { jsonrpc: '2.0', id: 100, method: 'tools/list' },
      { jsonrpc: '2.0', id: 101, method: 'ping' },
      { jsonrpc: '2.0', id: 102, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } },
    ]);
    await client.settle();
    expect(answers).toHaveLength(1);
    const batch = answers[0] as Array<{ id: number; result?: { tools?: unknown[] }; error?: { code: number } }>;
    expect(batch.find((r) => r.id === 100)?.result?.tools).toHaveLength(1);
    expect(batch.find((r) => r.id === 101)?.result).toEqual({});
    expect(batch.find((r) => r.id === 102)?.error?.code).toBe(-32600);
  });

  test('batches are refused in 2025-06-18', async () => {
    const client = await rawClient(grammarLike(), { batches: true });
    await client.initialize('2025-06-18');
    const seen: unknown[] = [];
    const original = client.peer.receive.bind(client.peer);
    client.peer.receive = (message, info) => {
      seen.push(message);
      original(message, info);
    };
    await client.transport.send([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
    await client.settle();
    expect(seen).toContainEqual(expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }));
  });
});
