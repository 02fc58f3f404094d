import { McpClient } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { McpServer } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { modelVisibleTools, resourceUriOf } from '../visibility.js';
import { UI_EXTENSION, UI_MIME_TYPE } from '../wire.js';
import { appTool, registerAppResource } from './app-resource.js';

describe.each(['legacy', 'modern'] as const)('MCP Apps server helpers (%s)', (era) => {
  test('a view, a tool linked to it, an app-only tool: declared, listed and read with their _meta.ui', async () => {
    const server = new McpServer({ name: 'apps-test', version: '1.0.0' });
    registerAppResource(server, {
      uri: 'ui://test/view',
      name: 'view',
      html: () => '<!DOCTYPE html><p>view</p>',
      csp: { connectDomains: ['https://api.example.com'] },
      prefersBorder: false,
    });
    server.registerTool(appTool({ name: 'show', inputSchema: { type: 'object' } }, { resourceUri: 'ui://test/view' }), () => ({
      content: [{ type: 'text', text: 'shown' }],
    }));
    server.registerTool(
      appTool({ name: 'refresh', inputSchema: { type: 'object' } }, { resourceUri: 'ui://test/view', visibility: ['app'] }),
      () => ({
        content: [{ type: 'text', text: 'refreshed' }],
      }),
    );
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new McpClient({ name: 'apps-test-client', version: '1.0.0' }, { era, onError: () => undefined });
    await client.connect(a);
    try {
      expect((client.serverCapabilities as { extensions?: Record<string, unknown> }).extensions?.[UI_EXTENSION]).toEqual({});
      const tools = await client.listAllTools();
      expect(tools.map((tool) => resourceUriOf(tool))).toEqual(['ui://test/view', 'ui://test/view']);
      expect(modelVisibleTools(tools).map((tool) => tool.name)).toEqual(['show']);
      const [listed] = await client.listAllResources();
      expect(listed).toMatchObject({
        uri: 'ui://test/view',
        mimeType: UI_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } },
      });
      const read = await client.readResource('ui://test/view');
      expect(read.contents).toEqual([
        {
          uri: 'ui://test/view',
          mimeType: UI_MIME_TYPE,
          text: '<!DOCTYPE html><p>view</p>',
          _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } },
        },
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('MCP Apps server helpers refuse what a host could not use', () => {
  const server = new McpServer({ name: 'apps-test', version: '1.0.0' });
  test.each([
    ['an https URI', { uri: 'https://example.com/view' }],
    ['a ui URI with spaces', { uri: 'ui://a b' }],
    ['an invalid CSP', { uri: 'ui://test/x', csp: { connectDomains: ["'unsafe-eval'"] } }],
  ])('registerAppResource: %s', (_what, patch) => {
    expect(() => registerAppResource(server, { name: 'x', html: '', ...patch } as never)).toThrow(TypeError);
  });

  test.each([
    ['a resourceUri that is not ui://', { resourceUri: 'https://example.com/view' }],
    ['an empty visibility', { visibility: [] }],
    ['an unknown visibility', { visibility: ['admin'] }],
  ])('appTool: %s', (_what, ui) => {
    expect(() => appTool({ name: 't' }, ui as never)).toThrow(TypeError);
  });

  test('appTool keeps the rest of _meta', () => {
    expect(appTool({ name: 't', _meta: { other: 1 } }, { visibility: ['model'] })._meta).toEqual({
      other: 1,
      ui: { visibility: ['model'] },
    });
  });
});
