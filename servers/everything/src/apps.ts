/**
 * The everything server's MCP App (the `io.modelcontextprotocol/ui` extension): a counter view at
 * `ui://everything/counter`, shown beside `test_app_counter` (visible to the model and to apps) and advanced by
 * `test_app_increment`, which only apps may call — a host must leave it out of what the model is offered and
 * refuse it to nothing but the view. The view speaks the extension's postMessage JSON-RPC by hand.
 */
import { appTool, registerAppResource } from '@wiremcp/ext-apps/server';
import type { McpServer } from '@wiremcp/server';
import { READ_ONLY } from './content-tools.js';

/** The view's URI. */
export const COUNTER_VIEW_URI = 'ui://everything/counter';

const COUNTER_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>counter</title></head>
<body><p>count: <output id="count">0</output> <button id="more" type="button">+1</button></p>
<script>
(() => {
  const pending = new Map();
  let nextId = 1;
  const post = (message) => window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  const request = (method, params) => new Promise((resolve, reject) => { const id = nextId++; pending.set(id, { resolve, reject }); post({ id, method, params }); });
  const show = (result) => { document.getElementById('count').textContent = String(result.structuredContent ? result.structuredContent.count : '?'); };
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message)); else resolve(message.result);
    } else if (message.method === 'ui/notifications/tool-result' && message.params) show(message.params);
    else if (message.method === 'ui/resource-teardown' || message.method === 'ping') post({ id: message.id, result: {} });
  });
  document.getElementById('more').addEventListener('click', () => request('tools/call', { name: 'test_app_increment', arguments: {} }).then(show));
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'everything-counter', version: '0.1.0' }, appCapabilities: {} })
    .then(() => post({ method: 'ui/notifications/initialized', params: {} }));
})();
</script></body></html>
`;

const COUNT_SCHEMA = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
  additionalProperties: false,
} as const;
const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Registers the view and its two tools (one counter per server instance). */
export function registerEverythingApps(server: McpServer): void {
  let count = 0;
  const result = (): { content: [{ type: 'text'; text: string }]; structuredContent: { count: number } } => ({
    content: [{ type: 'text', text: `count: ${count}` }],
    structuredContent: { count },
  });
  registerAppResource(server, {
    uri: COUNTER_VIEW_URI,
    name: 'counter-view',
    title: 'Counter (MCP App)',
    description: 'An MCP App view: shows the counter and advances it with test_app_increment, a tool only apps may call.',
    html: COUNTER_HTML,
  });
  server.registerTool(
    appTool(
      {
        name: 'test_app_counter',
        title: 'Counter with a view',
        description: 'Returns the counter; hosts that render MCP Apps show ui://everything/counter beside the result.',
        inputSchema: NO_ARGUMENTS,
        outputSchema: COUNT_SCHEMA,
        annotations: READ_ONLY,
      },
      { resourceUri: COUNTER_VIEW_URI },
    ),
    () => result(),
  );
  server.registerTool(
    appTool(
      {
        name: 'test_app_increment',
        title: 'Advance the counter (apps only)',
        description: 'Adds one to the counter. Visible to apps only: a host leaves it out of what the model is offered.',
        inputSchema: NO_ARGUMENTS,
        outputSchema: COUNT_SCHEMA,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      { resourceUri: COUNTER_VIEW_URI, visibility: ['app'] },
    ),
    () => {
      count++;
      return result();
    },
  );
}
