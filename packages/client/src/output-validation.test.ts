import { RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { initializeResult, scripted, until } from './client.test-util.js';

const INFO = { name: 'c', version: '1' };

const tools = [
  {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
      required: ['temperature', 'conditions'],
    },
  },
  { name: 'list', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: { type: 'integer' } } },
  { name: 'plain', inputSchema: { type: 'object' } },
];

/** A legacy server whose tools return whatever `answers[name]` says (bypassing any server-side validation). */
async function server(answers: Record<string, unknown>) {
  return scripted((method, params) => {
    if (method === 'initialize') return initializeResult('2025-11-25', { tools: {} });
    if (method === 'tools/list') return { tools };
    if (method === 'tools/call') return answers[params?.name as string];
    throw new RpcError(-32601, 'nope');
  });
}

describe('structuredContent validation against outputSchema', () => {
  test('conforming results pass; mismatches are INVALID_RESULT with readable errors', async () => {
    const fake = await server({
      weather: { content: [], structuredContent: { temperature: 'hot', conditions: 3 } },
      list: { content: [], structuredContent: [1, 2, 3] },
      plain: { content: [], structuredContent: { anything: true } },
    });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await client.listTools();
    const error = await client.callTool('weather').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'INVALID_RESULT',
      details: { tool: 'weather', errors: ['/temperature: must be number', '/conditions: must be string'] },
    });
    expect((error as Error).message).toContain("The structuredContent of tool 'weather' does not match its outputSchema");
    expect((await client.callTool('list')).structuredContent).toEqual([1, 2, 3]);
    expect((await client.callTool('plain')).structuredContent).toEqual({ anything: true });
    await client.close();
  });

  test('a missing structuredContent for a tool with outputSchema is invalid; an isError result is not checked', async () => {
    const fake = await server({
      weather: { content: [{ type: 'text', text: 'no structure' }] },
      list: { content: [{ type: 'text', text: 'boom' }], isError: true },
    });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await client.listAllTools();
    await expect(client.callTool('weather')).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringMatching(/no structuredContent/),
    });
    expect((await client.callTool('list')).isError).toBe(true);
    await client.close();
  });

  test('an unknown tool triggers one lazy tools/list, shared by concurrent calls', async () => {
    const fake = await server({ weather: { content: [], structuredContent: { temperature: 1, conditions: 'ok' } } });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await Promise.all([client.callTool('weather'), client.callTool('weather'), client.callTool('weather')]);
    await client.callTool('weather');
    expect(fake.methods().filter((m) => m === 'tools/list')).toHaveLength(1);
    await client.close();
  });

  test('validateToolOutput: false skips validation (and the lazy listing)', async () => {
    const fake = await server({ weather: { content: [], structuredContent: { temperature: 'hot' } } });
    const client = new McpClient(INFO, { era: 'legacy', validateToolOutput: false });
    await client.connect(fake.transport);
    expect((await client.callTool('weather')).structuredContent).toEqual({ temperature: 'hot' });
    expect(fake.methods()).not.toContain('tools/list');
    await client.close();
  });

  test('tools/list_changed forgets the cached definitions', async () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] };
    const fake = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2025-11-25', { tools: { listChanged: true } });
      if (method === 'tools/list') return { tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: schema }] };
      return { content: [], structuredContent: { v: 1 } };
    });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await client.listTools();
    await expect(client.callTool('t')).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    schema = { type: 'object', properties: { v: { type: 'number' } } };
    let changed = false;
    client.onToolsListChanged(() => (changed = true));
    await fake.peer.notify('notifications/tools/list_changed');
    await until(() => changed);
    expect((await client.callTool('t')).structuredContent).toEqual({ v: 1 });
    await client.close();
  });
});
