// The capability gates of the router: a method whose server capability is not declared is unknown (-32601,
// naming the capability). The router remembers the gate and its verdict per method; these tests change what is
// declared between requests, and alternate sessions that declared different things, to check that the verdict
// follows.
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { rawClient } from './server.test-util.js';

const PROMPT = { name: 'explain' };
const promptResult = () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Explain' } }] });

describe('capability gates', () => {
  test('2026-07-28: a capability declared after a refusal opens the method, and removing it closes it again', async () => {
    const server = new McpServer({ name: 'gates', version: '1.0.0' });
    const client = await rawClient(server);
    await expect(client.modern('prompts/list')).rejects.toMatchObject({
      code: -32601,
      data: { reason: expect.stringContaining("'prompts' capability") },
    });
    const prompt = server.registerPrompt(PROMPT, promptResult);
    await expect(client.modern('prompts/list')).resolves.toMatchObject({ prompts: [{ name: 'explain' }] });
    prompt.remove();
    await expect(client.modern('prompts/list')).rejects.toMatchObject({ code: -32601 });
  });

  test('legacy: each session keeps the capabilities of its handshake, whatever the other sessions declared', async () => {
    const server = new McpServer({ name: 'gates', version: '1.0.0' });
    const without = await rawClient(server);
    await without.initialize();
    server.registerPrompt(PROMPT, promptResult);
    const withPrompts = await rawClient(server);
    await withPrompts.initialize();
    for (let round = 0; round < 2; round++) {
      await expect(without.request('prompts/list')).rejects.toMatchObject({ code: -32601 });
      await expect(withPrompts.request('prompts/list')).resolves.toMatchObject({ prompts: [{ name: 'explain' }] });
    }
    // The same method in the other era, between the two sessions' requests.
    await expect(withPrompts.modern('prompts/list')).resolves.toMatchObject({ prompts: [{ name: 'explain' }] });
    await expect(without.request('prompts/list')).rejects.toMatchObject({ code: -32601 });
  });

  test('a method in no revision is unknown in both eras, also after known ones were served', async () => {
    const server = new McpServer({ name: 'gates', version: '1.0.0' });
    server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const client = await rawClient(server);
    await client.initialize();
    await expect(client.request('tools/list')).resolves.toMatchObject({ tools: [{ name: 'echo' }] });
    await expect(client.request('tools/lists')).rejects.toMatchObject({ code: -32601 });
    await expect(client.modern('tools/lists')).rejects.toMatchObject({ code: -32601 });
    await expect(client.modern('tools/list')).resolves.toMatchObject({ tools: [{ name: 'echo' }] });
  });
});
