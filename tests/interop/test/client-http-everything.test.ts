/**
 * Interop over HTTP: the wiremcp client drives the official `@modelcontextprotocol/server-everything` in its two
 * HTTP modes — `streamableHttp` (sessions, SSE answers, server requests on the POST streams, an event store) and
 * `sse` (the 2024-11-05 HTTP+SSE transport) — found by era detection from the URL alone. The server listens on all
 * interfaces by default; a preload binds it to 127.0.0.1.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, type InputHandlers } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { binOf, spawnHttpServer, stopAll } from './http-fixtures.js';

const everything = binOf('@modelcontextprotocol/server-everything');

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await stopAll();
});

const asked: string[] = [];
const handlers: InputHandlers = {
  elicitation: (params) => {
    asked.push(`elicit: ${params.message}`);
    return { action: 'accept', content: { name: 'Ada', check: true, integer: 7 } };
  },
  sampling: (params) => {
    asked.push('sample');
    const first = params.messages[0]?.content as { text?: string } | undefined;
    return { role: 'assistant', content: { type: 'text', text: `echo: ${first?.text ?? ''}` }, model: 'test-model' };
  },
  roots: () => ({ roots: [{ uri: 'file:///tmp/project', name: 'project' }] }),
};

function client(): McpClient {
  const c = new McpClient({ name: 'wiremcp-http-interop', version: '1.0.0' }, { handlers, onError: () => undefined });
  clients.push(c);
  return c;
}

const text = (result: { content?: unknown }): string =>
  ((result.content as Array<{ type: string; text?: string }> | undefined) ?? [])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

describe('official server-everything over Streamable HTTP', () => {
  test('detection, tools, progress, elicitation and sampling on the POST streams, resources, prompts, DELETE', async () => {
    const server = await spawnHttpServer(everything, ['streamableHttp']);
    const c = client();
    const factory = httpTransportFactory(`${server.origin}/mcp`);
    await c.connect(factory);
    expect(factory.kind).toBe('streamable');
    expect(c.era).toBe('legacy');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(c.serverInfo).toMatchObject({ name: 'mcp-servers/everything' });
    const tools = (await c.listAllTools()).map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-structured-content', 'trigger-elicitation-request', 'trigger-sampling-request']),
    );
    expect(text(await c.callTool('get-sum', { a: 2, b: 3 }))).toBe('The sum of 2 and 3 is 5.');
    expect(text(await c.callTool('echo', { message: 'über HTTP ☀' }))).toContain('über HTTP ☀');
    expect((await c.callTool('get-structured-content', { location: 'New York' })).structuredContent).toMatchObject({
      conditions: expect.any(String),
    });
    const progress: number[] = [];
    const long = await c.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onprogress: ({ progress: p }) => progress.push(p) },
    );
    expect(text(long)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
    asked.length = 0;
    expect(text(await c.callTool('trigger-elicitation-request', {}))).toContain('User provided the requested information');
    expect(text(await c.callTool('trigger-sampling-request', { prompt: 'hello', maxTokens: 5 }))).toContain(
      'echo: Resource trigger-sampling-request context: hello',
    );
    expect(asked).toEqual(['elicit: Please provide inputs for the following fields:', 'sample']);
    const read = await c.readResource('demo://resource/static/document/architecture.md');
    expect(read.contents[0]).toMatchObject({ uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown' });
    const prompt = await c.getPrompt('args-prompt', { city: 'Paris', state: 'TX' });
    expect(JSON.stringify(prompt.messages)).toContain('Paris, TX');
    await c.close();
  });
});

describe('official server-everything over HTTP+SSE (2024-11-05)', () => {
  test('POSTs to the stream URL are refused, so the GET stream and its endpoint are used; calls and progress work', async () => {
    const server = await spawnHttpServer(everything, ['sse']);
    const c = client();
    const factory = httpTransportFactory(`${server.origin}/sse`);
    await c.connect(factory);
    expect(factory.kind).toBe('sse');
    expect(c.era).toBe('legacy');
    expect(text(await c.callTool('get-sum', { a: 40, b: 2 }))).toBe('The sum of 40 and 2 is 42.');
    const progress: number[] = [];
    await c.callTool('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onprogress: ({ progress: p }) => progress.push(p) });
    expect(progress).toEqual([1, 2]);
    asked.length = 0;
    expect(text(await c.callTool('trigger-sampling-request', { prompt: 'sse', maxTokens: 5 }))).toContain(
      'echo: Resource trigger-sampling-request context: sse',
    );
    expect(asked).toEqual(['sample']);
    await c.close();
  });
});
