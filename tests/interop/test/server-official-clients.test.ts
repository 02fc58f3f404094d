/**
 * Our servers driven by the official MCP TypeScript clients over stdio: v1 (`@modelcontextprotocol/sdk`
 * 1.32.2) and v2 (`@modelcontextprotocol/client` 2.4.0, with its default negotiation and with
 * `versionNegotiation: 'auto'`). Each test checks one feature through the client's own API and, where the era
 * matters, on the wire (the helper taps the client's transport). The grammar server's bin is covered in
 * server-official-clients-grammar.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ALL_CLIENT_CAPABILITIES,
  closeAll,
  connectOfficial,
  eraOnTheWire,
  inputRequiredResults,
  serverRequests,
  resourceTextOf,
  roundTrip,
  TEST_ANSWERS,
  textOf,
  type Flavor,
} from './server-official-clients-helpers.js';

const EVERYTHING_DIST = fileURLToPath(new URL('../../../servers/everything/dist/bin.js', import.meta.url));
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

beforeAll(() => {
  if (!existsSync(EVERYTHING_DIST)) throw new Error(`${EVERYTHING_DIST} is missing: run \`turbo run build\` first`);
});

const leftovers: number[] = [];
afterEach(async () => {
  leftovers.push(...(await closeAll()));
});
afterAll(() => {
  // Every server process (and every v2 probe sibling) ended on its own when its client closed.
  expect(leftovers).toEqual([]);
});

/** Which era each official client ends up in against our dual-era server, and at which revision. */
const CLIENTS: Array<{ flavor: Flavor; era: 'legacy' | 'modern'; version: string }> = [
  { flavor: 'v1', era: 'legacy', version: '2025-11-25' },
  { flavor: 'v2', era: 'legacy', version: '2025-11-25' },
  { flavor: 'v2-auto', era: 'modern', version: '2026-07-28' },
];

const connect = (flavor: Flavor, withClientFeatures = false) =>
  connectOfficial(flavor, withClientFeatures ? { capabilities: ALL_CLIENT_CAPABILITIES, answers: TEST_ANSWERS } : {});

describe.each(CLIENTS)('official $flavor client → everything server', ({ flavor, era, version }) => {
  test(`negotiates the ${era} era at ${version}`, async () => {
    const connection = await connect(flavor);
    await connection.client.listTools();
    expect(eraOnTheWire(connection)).toEqual({ era, version });
    expect(connection.serverInfo()).toMatchObject({ name: 'wiremcp-everything', version: '0.1.0' });
    if (connection.v2) {
      expect(connection.v2.getProtocolEra()).toBe(era);
      expect(connection.v2.getNegotiatedProtocolVersion()).toBe(version);
    }
    if (era === 'modern') {
      // The era was settled by a server/discover probe (on a sibling process): the session process never saw initialize.
      expect(connection.v2!.getDiscoverResult()?.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
      const toolsList = connection.wire.received.find((message) => Array.isArray(message.result?.tools));
      expect(toolsList?.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    }
  });

  test('tools: list, every content type, tool errors and protocol errors', async () => {
    const connection = await connect(flavor);
    const { tools } = await connection.client.listTools();
    const names = tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['test_simple_text', 'test_image_content', 'test_audio_content', 'test_sampling', 'json_schema_2020_12_tool']),
    );
    for (const tool of tools) expect(tool.description).toEqual(expect.any(String));
    // The JSON Schema 2020-12 keywords survive the client's tool parsing (conformance json-schema-2020-12).
    expect(tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      additionalProperties: false,
    });

    expect(textOf(await connection.callTool({ name: 'test_simple_text' }))).toBe('This is a simple text response for testing.');
    expect((await connection.callTool({ name: 'test_image_content', arguments: {} })).content[0]).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
    });
    expect((await connection.callTool({ name: 'test_audio_content', arguments: {} })).content[0]).toMatchObject({
      type: 'audio',
      mimeType: 'audio/wav',
    });
    expect((await connection.callTool({ name: 'test_embedded_resource', arguments: {} })).content[0]).toMatchObject({
      resource: { uri: 'test://embedded-resource' },
    });
    const mixed = await connection.callTool({ name: 'test_multiple_content_types', arguments: {} });
    expect(mixed.content.map((block: { type: string }) => block.type)).toEqual(['text', 'image', 'resource']);
    const links = await connection.callTool({ name: 'test_resource_links', arguments: {} });
    expect(links.content.filter((block: { type: string }) => block.type === 'resource_link')).toHaveLength(3);
    const annotated = await connection.callTool({ name: 'test_annotated_content', arguments: {} });
    expect(annotated.content[0]?.annotations).toEqual({ audience: ['user'], priority: 1 });

    const failed = await connection.callTool({ name: 'test_error_handling', arguments: {} });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    });
    const invalid = await connection.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 5 } });
    expect(invalid.isError).toBe(true);
    await expect(connection.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  test('structured output: structuredContent matches the outputSchema the client validates against', async () => {
    const connection = await connect(flavor);
    await connection.client.listTools(); // the clients validate structured output against the listed outputSchema
    const result = await connection.callTool({ name: 'test_structured_output', arguments: { city: 'Paris' } });
    expect(result.structuredContent).toEqual({
      city: 'Paris',
      temperatureC: expect.any(Number),
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
    expect(JSON.parse(textOf(result)!)).toEqual(result.structuredContent);
  });

  test('resources: list with pagination, read text and blob, templates, not found', async () => {
    const connection = await connect(flavor);
    const first = await connection.client.listResources();
    if (flavor === 'v1') {
      // v1 returns one page; the cursor brings the rest.
      expect(first.resources).toHaveLength(100);
      const second = await connection.client.listResources({ cursor: first.nextCursor });
      expect(first.resources.length + second.resources.length).toBe(158); // 150 items, three static resources, the SKILL.md of four skills, the App view
      expect(second.nextCursor).toBeUndefined();
    } else {
      // v2 walks every page itself.
      expect(first.resources).toHaveLength(158);
      expect(connection.wire.sent.filter((message) => message.method === 'resources/list')).toHaveLength(2);
    }
    expect(first.resources[0]).toMatchObject({
      uri: 'test://static-text',
      name: 'static-text',
      mimeType: 'text/plain',
      annotations: { priority: 0.8 },
    });

    const text = await connection.client.readResource({ uri: 'test://static-text' });
    expect(text.contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    const blob = await connection.client.readResource({ uri: 'test://static-binary' });
    expect(blob.contents[0]).toMatchObject({ uri: 'test://static-binary', mimeType: 'image/png', blob: expect.stringMatching(/^iVBOR/) });

    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
      'test://items/{n}',
      'skill://{+path}',
    ]);
    const data = await connection.client.readResource({ uri: 'test://template/123/data' });
    expect(JSON.parse(resourceTextOf(data) ?? 'null')).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });

    const missing = 'test://nonexistent-resource-for-conformance-testing';
    const error = (await connection.client.readResource({ uri: missing }).catch((e: unknown) => e)) as Error & { code?: number };
    // On the wire: -32002 in legacy revisions, -32602 in 2026-07-28 (which reserves -32002).
    expect(connection.wire.received.at(-1)).toMatchObject({ error: { code: era === 'legacy' ? -32002 : -32602, data: { uri: missing } } });
    // v1 surfaces the wire code; v2 folds both into its ResourceNotFoundError (code -32602).
    if (flavor === 'v1') expect(error).toMatchObject({ code: -32002 });
    else {
      expect(error).toMatchObject({ code: -32602, data: { uri: missing } });
      expect(error.constructor.name).toBe('ResourceNotFoundError');
    }
  });

  test('resource subscriptions: updates for the watched resource arrive', async () => {
    const connection = await connect(flavor);
    const updates: unknown[] = [];
    connection.onNotification('notifications/resources/updated', (params) => updates.push(params));
    if (era === 'legacy') {
      expect(await connection.client.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
      await connection.callTool({ name: 'test_update_watched_resource', arguments: {} });
      await roundTrip(connection);
      expect(updates).toEqual([{ uri: 'test://watched-resource' }]);
      expect(await connection.client.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
      await connection.callTool({ name: 'test_update_watched_resource', arguments: {} });
      await roundTrip(connection);
      expect(updates).toHaveLength(1);
    } else {
      // resources/subscribe is gone in 2026-07-28; the v2 client refuses it locally and offers listen().
      await expect(connection.client.subscribeResource({ uri: 'test://watched-resource' })).rejects.toMatchObject({
        code: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION',
      });
      const subscription = await connection.v2!.listen({ resourceSubscriptions: ['test://watched-resource'] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['test://watched-resource'] });
      await connection.callTool({ name: 'test_update_watched_resource', arguments: {} });
      await roundTrip(connection);
      expect(updates).toEqual([{ uri: 'test://watched-resource', _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } }]);
      await subscription.close();
      expect(await subscription.closed).toBe('local');
    }
    expect(resourceTextOf(await connection.client.readResource({ uri: 'test://watched-resource' }))).toMatch(/version [23]\)$/);
  });

  test('prompts: list and get (simple, arguments, embedded resource, image); bad arguments are -32602', async () => {
    const connection = await connect(flavor);
    const { prompts } = await connection.client.listPrompts();
    expect(prompts.map((prompt: { name: string }) => prompt.name)).toEqual(
      expect.arrayContaining([
        'test_simple_prompt',
        'test_prompt_with_arguments',
        'test_prompt_with_embedded_resource',
        'test_prompt_with_image',
      ]),
    );
    expect((await connection.client.getPrompt({ name: 'test_simple_prompt' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const withArgs = await connection.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(withArgs.messages[0]?.content).toMatchObject({ type: 'text' });
    expect((withArgs.messages[0]?.content as { text: string }).text).toBe("Prompt with arguments: arg1='hello', arg2='world'");
    const embedded = await connection.client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://static-text' },
    });
    expect(embedded.messages[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'test://static-text', mimeType: 'text/plain' },
    });
    const image = await connection.client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages.map((message: { content: { type: string } }) => message.content.type)).toEqual(['image', 'text']);
    await expect(
      connection.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'only one' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  test('completion: prompt arguments (with context) and template variables', async () => {
    const connection = await connect(flavor);
    const prompt = await connection.client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(prompt.completion).toEqual({ values: ['paris', 'park', 'party'], total: 3, hasMore: false });
    const dependent = await connection.client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: '' },
      context: { arguments: { arg1: 'hello' } },
    });
    expect(dependent.completion.values).toEqual(['hello-world', 'hello-again', 'hello-hello']);
    const template = await connection.client.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '12' },
    });
    expect(template.completion.values).toEqual(['123', '124', '125']);
  });

  test('logging: the client receives the log messages it asked for', async () => {
    const connection = await connect(flavor);
    const logs: Array<{ level?: unknown; data?: unknown }> = [];
    connection.onNotification('notifications/message', (params) => logs.push(params));
    if (era === 'legacy') {
      expect(await connection.client.setLoggingLevel('info')).toEqual({});
      await connection.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await roundTrip(connection);
      expect(logs.map((log) => log.data)).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
      await connection.client.setLoggingLevel('error');
      await connection.callTool({ name: 'test_logging_tool', arguments: {} });
      await roundTrip(connection);
      expect(logs.slice(3).map((log) => log.level)).toEqual(['error', 'critical', 'alert', 'emergency']);
    } else {
      // logging/setLevel does not exist in 2026-07-28 (the v2 client refuses it locally); the level travels in
      // each request's _meta, and without it the server sends no log messages.
      await expect(connection.client.setLoggingLevel('info')).rejects.toMatchObject({ code: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION' });
      await connection.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await roundTrip(connection);
      expect(logs).toEqual([]);
      await connection.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL_KEY]: 'info' } });
      await connection.callTool({ name: 'test_logging_tool', arguments: {}, _meta: { [LOG_LEVEL_KEY]: 'error' } });
      await roundTrip(connection);
      expect(logs.map((log) => log.data)).toEqual([
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
        'A error message',
        'A critical message',
        'A alert message',
        'A emergency message',
      ]);
    }
  });

  test('progress: the callback receives 0, 50 and 100 of 100', async () => {
    const connection = await connect(flavor);
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await connection.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p) });
    expect(textOf(result)).toMatch(/Progress test completed/);
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    const call = connection.wire.sent.find((message) => message.params?.name === 'test_tool_with_progress');
    expect(call?.params?._meta?.progressToken).toBeDefined();
  });

  test('cancellation: aborting a call sends notifications/cancelled; the server stops the work and keeps serving', async () => {
    const connection = await connect(flavor);
    const controller = new AbortController();
    let started!: () => void;
    const progressing = new Promise<void>((resolve) => (started = resolve));
    const call = connection.callTool(
      { name: 'test_long_running_operation', arguments: { durationMs: 60_000, steps: 600 } },
      { signal: controller.signal, onprogress: () => started() },
    );
    // Under way once it reports progress.
    await progressing;
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    const cancelled = connection.wire.sent.find((message) => message.method === 'notifications/cancelled');
    const request = connection.wire.sent.find((message) => message.params?.name === 'test_long_running_operation')!;
    expect(cancelled?.params?.requestId).toBe(request.id);
    expect(textOf(await connection.callTool({ name: 'test_simple_text', arguments: {} }))).toMatch(/simple text/);
    await roundTrip(connection);
    expect(connection.wire.received.filter((message) => message.id === request.id)).toEqual([]);
    // The server dropped the one-minute operation: with nothing in progress it exits on stdin EOF by itself, before
    // the client would escalate to SIGTERM (which the server would log).
    await connection.client.close();
    expect(connection.stderr()).not.toMatch(/SIGTERM/);
  });

  test('sampling, elicitation (form and URL) and roots through the client handlers', async () => {
    const connection = await connect(flavor, true);
    expect(textOf(await connection.callTool({ name: 'test_sampling', arguments: { prompt: 'Test prompt for sampling' } }))).toBe(
      'LLM response: model says: Test prompt for sampling',
    );
    expect(textOf(await connection.callTool({ name: 'test_elicitation', arguments: { message: 'Please provide your information' } }))).toBe(
      'User response: action=accept, content={"username":"username-answer","email":"email-answer"}',
    );
    expect(textOf(await connection.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} }))).toMatch(
      /^Elicitation completed: action=accept/,
    );
    expect(textOf(await connection.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} }))).toMatch(
      /^Elicitation completed: action=accept/,
    );
    expect(textOf(await connection.callTool({ name: 'test_elicitation_url', arguments: {} }))).toBe(
      'URL elicitation completed: action=accept, content={}',
    );
    expect((await connection.callTool({ name: 'test_list_roots', arguments: {} })).structuredContent).toEqual({
      roots: [{ uri: 'file:///interop/workspace', name: 'workspace' }],
    });
    const asked = serverRequests(connection.wire).map((message) => message.method);
    if (era === 'legacy') {
      // Legacy: real server→client requests, answered by the handlers.
      expect(asked).toEqual([
        'sampling/createMessage',
        'elicitation/create',
        'elicitation/create',
        'elicitation/create',
        'elicitation/create',
        'roots/list',
      ]);
      expect(inputRequiredResults(connection.wire)).toEqual([]);
    } else {
      // 2026-07-28: no server→client request at all; each input came in an input_required result and the v2
      // client fulfilled it through the same handlers and retried with inputResponses and the requestState.
      expect(asked).toEqual([]);
      const rounds = inputRequiredResults(connection.wire);
      expect(rounds.map((round) => Object.values(round.inputRequests ?? {})[0]!.method)).toEqual([
        'sampling/createMessage',
        'elicitation/create',
        'elicitation/create',
        'elicitation/create',
        'elicitation/create',
        'roots/list',
      ]);
      const retries = connection.wire.sent.filter((message) => message.params?.inputResponses !== undefined);
      expect(retries).toHaveLength(6);
      for (const [index, retry] of retries.entries()) expect(retry.params?.requestState).toBe(rounds[index]!.requestState);
    }
  });

  test('input-required fixtures: named inputs, several per round, several rounds, a prompt that needs input', async () => {
    const connection = await connect(flavor, true);
    expect(textOf(await connection.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe(
      'Hello, name-answer!',
    );
    expect(textOf(await connection.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} }))).toBe(
      'All inputs received: name=name-answer, greeting=model says: Generate a greeting, roots=1',
    );
    expect(textOf(await connection.callTool({ name: 'test_input_required_result_multi_round', arguments: {} }))).toBe(
      'Multi-round complete: name=name-answer, color=color-answer',
    );
    const stateText = textOf(await connection.callTool({ name: 'test_input_required_result_request_state', arguments: {} }));
    expect(stateText).toMatch(era === 'modern' ? /^state-ok: action=accept/ : /^answered directly/);
    const prompt = await connection.client.getPrompt({ name: 'test_input_required_result_prompt' });
    expect((prompt.messages[0]?.content as { text?: string } | undefined)?.text).toBe(
      'Please help with the following context: context-answer',
    );
    if (era === 'modern') {
      expect(inputRequiredResults(connection.wire).map((round) => Object.keys(round.inputRequests ?? {}).sort())).toEqual([
        ['user_name'],
        ['client_roots', 'greeting', 'user_name'],
        ['step1'],
        ['step2'],
        ['confirm'],
        ['user_context'],
      ]);
    }
  });

  test('a tool that needs a capability the client did not declare', async () => {
    const connection = await connect(flavor);
    if (era === 'legacy') {
      const result = await connection.callTool({ name: 'test_missing_capability', arguments: {} });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'The client did not declare the sampling capability' }],
      });
    } else {
      await expect(connection.callTool({ name: 'test_missing_capability', arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
    }
  });

  test('list changes: toggling the dynamic tool and prompt notifies the client', async () => {
    const connection = await connect(flavor);
    const changes: string[] = [];
    connection.onNotification('notifications/tools/list_changed', () => changes.push('tools'));
    connection.onNotification('notifications/prompts/list_changed', () => changes.push('prompts'));
    const subscription = era === 'modern' ? await connection.v2!.listen({ toolsListChanged: true, promptsListChanged: true }) : undefined;
    await connection.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await connection.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
    await roundTrip(connection);
    expect(changes.sort()).toEqual(['prompts', 'tools']);
    expect((await connection.client.listTools()).tools.map((tool: { name: string }) => tool.name)).toContain('test_dynamic_tool');
    expect(textOf(await connection.callTool({ name: 'test_dynamic_tool', arguments: {} }))).toBe('The dynamic tool is here.');
    await subscription?.close();
  });

  test(era === 'legacy' ? 'ping answers {}' : 'ping does not exist in 2026-07-28 (refused by the client)', async () => {
    const connection = await connect(flavor);
    if (era === 'legacy') expect(await connection.client.ping()).toEqual({});
    else await expect(connection.client.ping()).rejects.toMatchObject({ code: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION' });
  });
});

test('official v2 client pinned to 2026-07-28 → everything server: modern, tools and MRTR work', async () => {
  const connection = await connectOfficial('v2-pin', { capabilities: ALL_CLIENT_CAPABILITIES, answers: TEST_ANSWERS });
  expect(connection.v2!.getProtocolEra()).toBe('modern');
  expect(textOf(await connection.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe('Hello, name-answer!');
  expect(eraOnTheWire(connection)).toEqual({ era: 'modern', version: '2026-07-28' });
});
