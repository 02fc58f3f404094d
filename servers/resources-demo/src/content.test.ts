import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DATA_DIR } from './catalogue.js';
import { connectDemo, ERAS } from './resources-demo.test-util.js';

const onDisk = (path: string) => readFileSync(new URL(path, DATA_DIR));

describe.each(ERAS)('resources as content (%s)', (era) => {
  test('find_resources returns resource_link blocks carrying each resource’s listing fields', async () => {
    const { client } = await connectDemo(era);
    const found = await client.callTool('find_resources', { query: 'pixel' });
    expect(found.content).toEqual([
      { type: 'text', text: '2 resource(s) match "pixel"; 2 shown.' },
      expect.objectContaining({ type: 'resource_link', uri: 'demo://files/images/pixel-art/heart.png', mimeType: 'image/png', size: 139 }),
      expect.objectContaining({ type: 'resource_link', uri: 'demo://files/images/pixel-art/star.png', title: 'Pixel star' }),
    ]);
    const limited = await client.callTool('find_resources', { query: 'e', limit: 3 });
    expect(limited.content).toHaveLength(4);
    expect(limited.content[0]).toMatchObject({ text: expect.stringMatching(/^\d+ resource\(s\) match "e"; 3 shown\.$/) });
    expect((await client.callTool('find_resources', { query: 'zzz' })).content).toEqual([
      { type: 'text', text: 'No resource matches "zzz".' },
    ]);
  });

  test('embed_resource returns embedded resource contents, text or blob; an unknown uri is a tool error', async () => {
    const { client } = await connectDemo(era);
    expect((await client.callTool('embed_resource', { uri: 'demo://elements/Au' })).content).toEqual([
      { type: 'text', text: 'Contents of demo://elements/Au:' },
      {
        type: 'resource',
        resource: {
          uri: 'demo://elements/Au',
          mimeType: 'application/json',
          text: '{"number":79,"symbol":"Au","name":"Gold","period":6,"group":11}',
        },
      },
    ]);
    const png = await client.callTool('embed_resource', { uri: 'demo://files/images/pixel-art/star.png' });
    expect(png.content[1]).toEqual({
      type: 'resource',
      resource: {
        uri: 'demo://files/images/pixel-art/star.png',
        mimeType: 'image/png',
        blob: onDisk('images/pixel-art/star.png').toString('base64'),
      },
    });
    expect(await client.callTool('embed_resource', { uri: 'demo://nope' })).toMatchObject({ isError: true, content: [{ type: 'text' }] });
  });

  test('discuss_resource embeds the resource in the prompt; tour links every file of a folder', async () => {
    const { client } = await connectDemo(era);
    const discuss = await client.getPrompt('discuss_resource', {
      uri: 'demo://files/docs/glossary.txt',
      question: 'Which term is new in 2026?',
    });
    expect(discuss.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'demo://files/docs/glossary.txt', mimeType: 'text/plain', text: onDisk('docs/glossary.txt').toString('utf8') },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Which term is new in 2026?' } },
    ]);
    const tour = await client.getPrompt('tour', { folder: 'images' });
    expect(tour.messages.map((message) => message.content.type)).toEqual(['text', 'resource_link', 'resource_link', 'resource_link']);
    expect(tour.messages[1]!.content).toMatchObject({ uri: 'demo://files/images/logo.svg', title: 'Logo', mimeType: 'image/svg+xml' });
    await expect(client.getPrompt('discuss_resource', { uri: 'demo://nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt('tour', { folder: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt('discuss_resource', {})).rejects.toMatchObject({ code: -32602 });
  });
});

describe('older revisions', () => {
  test('2024-11-05 and 2025-03-26 have no resource_link: the link becomes a text block naming the URI', async () => {
    for (const protocolVersion of ['2024-11-05', '2025-03-26'] as const) {
      const { client } = await connectDemo('legacy', { clientOptions: { protocolVersion } });
      expect(client.protocolVersion).toBe(protocolVersion);
      const found = await client.callTool('find_resources', { query: 'iron' });
      expect(found.content).toEqual([
        { type: 'text', text: '1 resource(s) match "iron"; 1 shown.' },
        { type: 'text', text: 'Resource: Iron <demo://elements/Fe> — Element 26: period 4, group 8.' },
      ]);
      // Everything else about resources is the same in every legacy revision.
      expect((await client.readResource('demo://elements/Fe')).contents[0]).toMatchObject({ uri: 'demo://elements/Fe' });
      await expect(client.readResource('demo://elements/Xx')).rejects.toMatchObject({ code: -32002 });
    }
  });

  test('the server announces what it offers, per era', async () => {
    const legacy = await connectDemo('legacy');
    expect(legacy.client.serverCapabilities).toEqual({
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
      // resources/directory/read is announced the one way the spec has: the skills extension's directoryRead.
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    const modern = await connectDemo('modern');
    expect(modern.client.serverCapabilities).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {} });
    expect(modern.client.serverInfo).toMatchObject({ name: 'wiremcp-resources-demo', title: 'wiremcp resources demo', version: '0.1.0' });
    expect(modern.client.instructions).toMatch(/^A demonstration of MCP resources\./);
    const tools = await modern.client.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'find_resources',
      'update_watched_resource',
      'add_note',
      'edit_note',
      'delete_note',
      'embed_resource',
    ]);
    expect((await modern.client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(['discuss_resource', 'tour']);
  });
});
