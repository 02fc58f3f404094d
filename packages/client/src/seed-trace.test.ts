import { McpServer } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { connected, SEED_TRACE } from './client.test-util.js';

function grammarServer(): McpServer {
  const server = new McpServer({ name: 'grammar', version: '1.0.0' });
  server.registerTool(
    {
      name: 'conjugate',
      inputSchema: {
        type: 'object',
        properties: { verb: { type: 'string' }, tense: { type: 'string' }, person: { type: 'string' } },
        required: ['verb', 'tense', 'person'],
      },
      outputSchema: { type: 'object', properties: { form: { type: 'string' } }, required: ['form'] },
    },
    () => ({ content: [{ type: 'text', text: 'ate' }], structuredContent: { form: 'ate' } }),
  );
  return server;
}

describe('seed compatibility', () => {
  test("era 'legacy' pinned to 2024-11-05 with empty capabilities writes exactly the seed trace", async () => {
    const { client, written } = await connected(
      grammarServer(),
      { era: 'legacy', protocolVersion: '2024-11-05' },
      { name: 'test', version: '0.1' },
    );
    expect(client.protocolVersion).toBe('2024-11-05');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['conjugate']);
    const result = await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '3rd singular' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ate' }], structuredContent: { form: 'ate' } });
    expect(written).toEqual(SEED_TRACE);
    await client.close();
  });
});
