// A server written as the official TypeScript SDK v2 documents it (`@modelcontextprotocol/server`, `serveStdio`):
// one tool, one prompt, one resource, logging. The held-out conformance test runs the app against it as a server
// written by others.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer(
    { name: 'sdk-v2-example', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {}, resources: {}, logging: {} } },
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerPrompt('review', { argsSchema: z.object({ code: z.string() }) }, ({ code }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Review: ${code}` } }],
  }));
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'hello' }],
  }));
  return server;
});
