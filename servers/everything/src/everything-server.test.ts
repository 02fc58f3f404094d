import { describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES, CANNED_ANSWERS, connectEverything, ERAS } from './everything.test-util.js';
import { EVERYTHING_SERVER_INFO } from './everything-package.js';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';

/** Every tool the server lists, in order. */
const TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'json_schema_2020_12_tool',
  'test_structured_output',
  'test_resource_links',
  'test_annotated_content',
  'test_tool_with_logging',
  'test_logging_tool',
  'test_tool_with_progress',
  'test_long_running_operation',
  'test_reconnection',
  'test_x_mcp_header',
  'test_update_watched_resource',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_elicitation_url',
  'test_list_roots',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
  'test_app_counter',
  'test_app_increment',
];

const PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
  'test_input_required_result_prompt',
];

describe('identity and capabilities', () => {
  test('initialize announces every capability and the server identity', async () => {
    const client = await connectEverything('modern');
    const result = await client.peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    expect(result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: {
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
      },
      serverInfo: { name: EVERYTHING_SERVER_INFO.name, version: EVERYTHING_SERVER_INFO.version, icons: [{ mimeType: 'image/svg+xml' }] },
      instructions: expect.stringMatching(/conformance/),
    });
  });

  test('server/discover lists every revision, the capabilities and the server identity', async () => {
    const client = await connectEverything('modern');
    const result = await client.modern('server/discover');
    expect(result.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
      completions: {},
      logging: {},
    });
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'wiremcp-everything' });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'public' });
  });

  test('2026-07-28 cacheable results carry ttlMs and cacheScope', async () => {
    const client = await connectEverything('modern');
    for (const [method, params] of [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'test://static-text' }],
    ] as const) {
      expect(await client.call(method, params)).toMatchObject({
        ttlMs: expect.any(Number),
        cacheScope: expect.stringMatching(/^(public|private)$/),
      });
    }
  });
});

describe.each(ERAS)('listings (%s)', (era) => {
  test('tools/list: every tool, each with a description and an object inputSchema', async () => {
    const client = await connectEverything(era);
    const { tools, nextCursor } = await client.call('tools/list');
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toBeDefined();
    }
    expect(tools[0]?.icons).toEqual([
      { src: expect.stringMatching(/^data:image\/svg\+xml;base64,/), mimeType: 'image/svg+xml', sizes: ['any'] },
    ]);
  });

  test('prompts/list: every prompt with a description; arguments where they take some', async () => {
    const client = await connectEverything(era);
    const { prompts } = await client.call('prompts/list');
    expect(prompts.map((prompt) => prompt.name)).toEqual(PROMPTS);
    for (const prompt of prompts) expect(prompt.description?.length).toBeGreaterThan(20);
    expect(prompts.find((p) => p.name === 'test_prompt_with_arguments')?.arguments).toEqual([
      { name: 'arg1', title: 'First argument', description: 'First test argument', required: true },
      { name: 'arg2', title: 'Second argument', description: 'Second test argument', required: true },
    ]);
  });
});

describe.each(ERAS)('prompts (%s)', (era) => {
  test('test_simple_prompt', async () => {
    const client = await connectEverything(era);
    expect((await client.call('prompts/get', { name: 'test_simple_prompt' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
  });

  test('test_prompt_with_arguments substitutes both arguments and requires them', async () => {
    const client = await connectEverything(era);
    const result = await client.call('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } },
    ]);
    await expect(client.call('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } })).rejects.toMatchObject({
      code: -32602,
    });
  });

  test('test_prompt_with_embedded_resource embeds the given URI', async () => {
    const client = await connectEverything(era);
    const result = await client.call('prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]);
  });

  test('test_prompt_with_image', async () => {
    const client = await connectEverything(era);
    expect((await client.call('prompts/get', { name: 'test_prompt_with_image' })).messages).toEqual([
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ]);
  });

  test('test_input_required_result_prompt asks for context first', async () => {
    const client = await connectEverything(era, {
      capabilities: ALL_CAPABILITIES,
      answers: { ...CANNED_ANSWERS, elicitation: () => ({ action: 'accept', content: { context: 'grammar homework' } }) },
    });
    const result = await client.call('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Please help with the following context: grammar homework' } },
    ]);
    if (era === 'modern') expect(client.inputRounds.map((round) => Object.keys(round))).toEqual([['user_context']]);
  });

  test('an unknown prompt is -32602', async () => {
    const client = await connectEverything(era);
    await expect(client.call('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });
});
