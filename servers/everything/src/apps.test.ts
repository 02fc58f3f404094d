import { McpClient } from '@wiremcp/client';
import { isAppCallable, modelVisibleTools, resourceUriOf, UI_EXTENSION, UI_MIME_TYPE } from '@wiremcp/ext-apps';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import { COUNTER_VIEW_URI } from './apps.js';
import { createEverythingServer } from './everything-package.js';
import { ERAS } from './everything.test-util.js';

describe.each(ERAS)('the counter App (%s)', (era) => {
  test('declared with the view and its two tools; the app-only tool is kept from the model', async () => {
    const server = createEverythingServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new McpClient({ name: 'everything-apps-test', version: '1.0.0' }, { era, onError: () => undefined });
    await client.connect(a);
    try {
      expect((client.serverCapabilities as { extensions?: Record<string, unknown> }).extensions?.[UI_EXTENSION]).toEqual({});
      const tools = await client.listAllTools();
      const counter = tools.find((tool) => tool.name === 'test_app_counter')!;
      const increment = tools.find((tool) => tool.name === 'test_app_increment')!;
      expect([resourceUriOf(counter), resourceUriOf(increment)]).toEqual([COUNTER_VIEW_URI, COUNTER_VIEW_URI]);
      expect(isAppCallable(increment)).toBe(true);
      const offered = modelVisibleTools(tools).map((tool) => tool.name);
      expect(offered).toContain('test_app_counter');
      expect(offered).not.toContain('test_app_increment');
      const view = await client.readResource(COUNTER_VIEW_URI);
      expect(view.contents[0]).toMatchObject({
        uri: COUNTER_VIEW_URI,
        mimeType: UI_MIME_TYPE,
        text: expect.stringContaining("name: 'test_app_increment'"),
      });
      await client.callTool('test_app_increment', {});
      expect((await client.callTool('test_app_counter', {})).structuredContent).toEqual({ count: 1 });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
