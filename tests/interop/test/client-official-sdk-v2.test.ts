/**
 * Interop: the wiremcp client against a server built on the official TypeScript SDK v2 (`@modelcontextprotocol/server`
 * 2.4.0), which serves 2026-07-28 per request and 2025-11-25 sessions from the same stdio process (`serveStdio`).
 * The server script runs with `node -e`, resolving the SDK and zod from this package, so no fixture file is needed.
 */
import { fileURLToPath } from 'node:url';
import { McpClient, type InputHandlers } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { changes as changesOf } from './events.js';

const interopManifest = fileURLToPath(new URL('../package.json', import.meta.url));

const SERVER = `
const { createRequire } = require('node:module');
const load = createRequire(${JSON.stringify(interopManifest)});
const { McpServer, inputRequired, acceptedContent } = load('@modelcontextprotocol/server');
const { serveStdio } = load('@modelcontextprotocol/server/stdio');
const { z } = load('zod');
serveStdio(() => {
  const server = new McpServer({ name: 'official-v2', version: '2.4.0-test' }, { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, logging: {} } });
  server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b },
  }));
  server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const schema = z.object({ confirm: z.boolean() });
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
    if (confirmed?.confirm !== true) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Deploy to ' + env + '?', requestedSchema: schema }) } });
    }
    return { content: [{ type: 'text', text: 'deployed to ' + env }] };
  });
  let grown = 0;
  server.registerTool('grow', { inputSchema: z.object({}) }, async () => {
    server.registerTool('grown-' + ++grown, { inputSchema: z.object({}) }, async () => ({ content: [] }));
    return { content: [{ type: 'text', text: 'grew ' + grown }] };
  });
  server.registerPrompt('review', { argsSchema: z.object({ code: z.string() }) }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Review: ' + code } }] }));
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }));
  return server;
});
`;

const transports: StdioClientTransport[] = [];

function spawnServer(): {
  transport: StdioClientTransport;
  sent: Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }>;
} {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', SERVER], stderr: 'pipe', shutdownTimeoutMs: 500 });
  transports.push(transport);
  const sent: Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(JSON.parse(JSON.stringify(message)));
    return send(message, options);
  };
  return { transport, sent };
}

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

const elicited: unknown[] = [];
const handlers: InputHandlers = {
  elicitation: (params) => {
    elicited.push(params.message);
    return { action: 'accept', content: { confirm: true } };
  },
};

describe('official SDK v2 server (stdio, dual-era)', () => {
  test('auto detection finds the modern era from server/discover', async () => {
    const { transport, sent } = spawnServer();
    const client = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' }, { handlers });
    await client.connect(transport);
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'official-v2', version: '2.4.0-test' });
    expect(client.serverCapabilities).toMatchObject({ tools: { listChanged: true }, prompts: {}, resources: {} });
    expect(sent.map((m) => m.method)).toEqual(['server/discover']);
    const discovered = await client.discover();
    expect(discovered).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'], ttlMs: 0, cacheScope: 'private' });
    await client.close();
  });

  test('modern: tools (validated structured output), an input-required round, prompts, resources', async () => {
    const { transport, sent } = spawnServer();
    const client = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' }, { handlers });
    await client.connect(transport);
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'deploy', 'grow']);
    expect((await client.callTool('add', { a: 40, b: 2 })).structuredContent).toEqual({ sum: 42 });
    elicited.length = 0;
    expect((await client.callTool('deploy', { env: 'prod' })).content).toEqual([{ type: 'text', text: 'deployed to prod' }]);
    expect(elicited).toEqual(['Deploy to prod?']);
    const deploys = sent.filter((m) => m.method === 'tools/call' && (m.params as { name?: string }).name === 'deploy');
    expect(deploys).toHaveLength(2);
    expect(deploys[1]!.params!.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: true } } });
    expect(deploys[1]!.id).not.toBe(deploys[0]!.id);
    expect((await client.getPrompt('review', { code: 'x = 1' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review: x = 1' } },
    ]);
    expect(await client.readResource('docs://readme')).toMatchObject({
      contents: [{ uri: 'docs://readme', text: 'hello' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
    await client.close();
  });

  test('modern: listen streams and the era-neutral onToolsListChanged', async () => {
    const { transport } = spawnServer();
    const client = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' });
    await client.connect(transport);
    const changes: string[] = [];
    const recorded = changesOf();
    client.onToolsListChanged(() => (changes.push('managed'), recorded.changed()));
    const stream = await client.listen(
      { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['docs://readme'] },
      { onNotification: (n) => (changes.push(`explicit ${n.method}`), recorded.changed()) },
    );
    // The server does not declare resources.subscribe, so the acknowledgement leaves the subscription out.
    expect(stream.acknowledged).toEqual({ toolsListChanged: true, promptsListChanged: true });
    await client.callTool('grow', {});
    await recorded.until(() => changes.length >= 2);
    expect(changes.sort()).toEqual(['explicit notifications/tools/list_changed', 'managed']);
    await stream.close();
    expect(await stream.done).toEqual({ reason: 'client-cancelled' });
    await client.close();
  });

  test("legacy: era 'legacy' gets a 2025-11-25 session from the same server; input arrives as a server request", async () => {
    const { transport, sent } = spawnServer();
    const client = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' }, { era: 'legacy', handlers });
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    elicited.length = 0;
    expect((await client.callTool('deploy', { env: 'staging' })).content).toEqual([{ type: 'text', text: 'deployed to staging' }]);
    expect(elicited).toEqual(['Deploy to staging?']);
    // The client answered the server's elicitation/create request (a response on the wire), with no retry.
    expect(sent.filter((m) => m.method === 'tools/call')).toHaveLength(2);
    expect(sent.some((m) => m.method === undefined && m.id !== undefined)).toBe(true);
    await client.close();
  });
});
