import { McpClient } from '@wiremcp/client';
import { isAppCallable, isModelVisible, modelVisibleTools, resourceUriOf, UI_EXTENSION, UI_MIME_TYPE } from '@wiremcp/ext-apps';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import { CONJUGATION_TABLE_URI } from './app.js';
import { createGrammarServer } from './grammar-server.js';
import { loadTable } from './table/index.js';

describe.each(['legacy', 'modern'] as const)('the grammar App (%s)', (era) => {
  test('declares the extension, links conjugate to the view, serves the view as an mcp-app document', async () => {
    const server = createGrammarServer(loadTable());
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new McpClient({ name: 'grammar-app-test', version: '1.0.0' }, { era, onError: () => undefined });
    await client.connect(a);
    try {
      expect((client.serverCapabilities as { extensions?: Record<string, unknown> }).extensions?.[UI_EXTENSION]).toEqual({});
      const tools = await client.listAllTools();
      const conjugate = tools.find((tool) => tool.name === 'conjugate')!;
      expect(resourceUriOf(conjugate)).toBe(CONJUGATION_TABLE_URI);
      expect(isModelVisible(conjugate) && isAppCallable(conjugate)).toBe(true);
      expect(modelVisibleTools(tools)).toHaveLength(4);
      const listed = (await client.listAllResources()).find((resource) => resource.uri === CONJUGATION_TABLE_URI);
      expect(listed).toMatchObject({ mimeType: UI_MIME_TYPE, _meta: { ui: { prefersBorder: true } } });
      const view = await client.readResource(CONJUGATION_TABLE_URI);
      const [content] = view.contents as Array<{ mimeType: string; text: string; _meta?: unknown }>;
      expect(content).toMatchObject({ mimeType: UI_MIME_TYPE, _meta: { ui: { prefersBorder: true } } });
      expect(content!.text).toMatch(/^<!DOCTYPE html>/);
      expect(content!.text).toContain("request('tools/call', { name: 'conjugate'");
      expect(content!.text).not.toMatch(/<script[^>]+src=|https?:\/\//);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
