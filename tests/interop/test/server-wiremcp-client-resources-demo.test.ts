/**
 * The resources demo (its built bin) driven by the wiremcp client over stdio, in every revision: the same calls
 * work in each, the era-specific parts (not-found code, resource_link before 2025-06-18, caching) differ as the
 * spec says, and the client's cache honours the per-resource hints of the real server process.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';

const BIN = fileURLToPath(new URL('../../../servers/resources-demo/bin/wiremcp-resources-demo.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../../servers/resources-demo/dist/bin.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`turbo run build\` first`);
});

const opened: Array<{ client: McpClient; transport: StdioClientTransport }> = [];
afterEach(async () => {
  for (const { client, transport } of opened.splice(0)) {
    await client.close().catch(() => {});
    // The process ended on its own once stdin closed (the clock's timer does not hold it).
    expect(transport.exitCode).toBe(0);
  }
});

/** Connects the wiremcp client to a fresh server process, recording the methods of the requests it sends. */
async function connect(options: ConstructorParameters<typeof McpClient>[1]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], stderr: 'pipe' });
  const sent: Array<{ method?: string; params?: { uri?: string } }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    sent.push(...([] as Array<(typeof sent)[number]>).concat(message as (typeof sent)[number]));
    return send(message, sendOptions);
  };
  const client = new McpClient({ name: 'interop-wiremcp', version: '1.0.0' }, options);
  opened.push({ client, transport });
  await client.connect(transport);
  return {
    client,
    reads: (uri: string) => sent.filter((message) => message.method === 'resources/read' && message.params?.uri === uri).length,
  };
}

const REVISIONS = [
  { era: 'legacy', protocolVersion: '2024-11-05' },
  { era: 'legacy', protocolVersion: '2025-03-26' },
  { era: 'legacy', protocolVersion: '2025-06-18' },
  { era: 'legacy', protocolVersion: '2025-11-25' },
  { era: 'modern', protocolVersion: '2026-07-28' },
] as const;

describe.each(REVISIONS)('wiremcp client ($protocolVersion) → resources demo', ({ era, protocolVersion }) => {
  test('every page, a blob, a dependent completion, a missing resource, a link to a new note', async () => {
    const { client } = await connect({ era, protocolVersion });
    expect([client.era, client.protocolVersion]).toEqual([era, protocolVersion]);
    expect(await client.listAllResources()).toHaveLength(133); // with the SKILL.md of its browse-catalogue skill
    expect((await client.readResource('test://static-binary')).contents[0]).toMatchObject({
      mimeType: 'image/png',
      blob: expect.any(String),
    });
    if (protocolVersion >= '2025-06-18') {
      const names = await client.complete({
        ref: { type: 'ref/resource', uri: 'demo://files/{folder}/{+name}' },
        argument: { name: 'name', value: 'p' },
        context: { arguments: { folder: 'images' } },
      });
      expect(names.completion.values).toEqual(['pixel-art/heart.png', 'pixel-art/star.png']);
    }
    await expect(client.readResource('demo://elements/Xx')).rejects.toMatchObject({ code: era === 'legacy' ? -32002 : -32602 });
    const added = await client.callTool('add_note', { title: 'Interop', text: 'hello' });
    // resource_link exists from 2025-06-18; older sessions get a text block that names the URI.
    expect(added.content[1]).toEqual(
      protocolVersion >= '2025-06-18'
        ? expect.objectContaining({ type: 'resource_link', uri: 'demo://notes/1' })
        : { type: 'text', text: 'Resource: Interop <demo://notes/1> — hello' },
    );
  });
});

test('the client’s cache follows the server’s per-resource hints: an hour, a minute (private), none', async () => {
  const { client, reads } = await connect({ era: 'modern' });
  for (let i = 0; i < 3; i++) {
    await client.readResource('demo://files/docs/welcome.md');
    await client.readResource('demo://request');
    await client.readResource('demo://live/log');
  }
  expect([reads('demo://files/docs/welcome.md'), reads('demo://request'), reads('demo://live/log')]).toEqual([1, 1, 3]);
  // A legacy session has no hints: nothing is cached.
  const legacy = await connect({ era: 'legacy' });
  await legacy.client.readResource('demo://files/docs/welcome.md');
  await legacy.client.readResource('demo://files/docs/welcome.md');
  expect(legacy.reads('demo://files/docs/welcome.md')).toBe(2);
});
