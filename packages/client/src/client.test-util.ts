/**
 * Test helpers: a demo McpServer exercising every feature, in-memory wiring, scripted raw servers, and a transport
 * wrapper that records the exact JSON written.
 */
import { createLinkedPair, Peer, type RequestContext, type Transport } from '@wiremcp/jsonrpc';
import type { RpcMessage } from '@wiremcp/protocol';
import { McpServer, type ServerOptions } from '@wiremcp/server';
import { McpClient } from './client.js';
import type { ClientOptions } from './options.js';

/** Seen by the demo server: calls that started, cancellations and the like, for assertions. */
export interface ServerLog {
  /** `<tool>#<request id>` of every `slow` and `hang` call, when its handler starts. */
  started: string[];
  cancelled: string[];
  rootsChanged: number;
}

/** A server with tools for every client feature, and its log. */
export function demoServer(options: ServerOptions = {}): { server: McpServer; log: ServerLog } {
  const log: ServerLog = { started: [], cancelled: [], rootsChanged: 0 };
  const server = new McpServer({ name: 'demo', version: '1.0.0', title: 'Demo' }, { instructions: 'Be nice.', ...options });
  server.onrootslistchanged = () => void log.rootsChanged++;
  server.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({
      content: [{ type: 'text', text: args.text ?? '' }],
    }),
  );
  server.registerTool(
    {
      name: 'add',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
    (args: { a: number; b: number }) => ({
      content: [{ type: 'text', text: String(args.a + args.b) }],
      structuredContent: { sum: args.a + args.b },
    }),
  );
  server.registerTool(
    { name: 'slow', inputSchema: { type: 'object', properties: { steps: { type: 'number' }, ms: { type: 'number' } } } },
    async (args: { steps?: number; ms?: number }, ctx) => {
      log.started.push(`slow#${String(ctx.requestId)}`);
      const steps = args.steps ?? 3;
      for (let i = 1; i <= steps; i++) {
        // Simulated work between steps; tests that care about time drive it with fake timers.
        await new Promise((resolve) => setTimeout(resolve, args.ms ?? 0));
        if (ctx.signal.aborted) {
          log.cancelled.push(`slow#${String(ctx.requestId)}`);
          throw new Error('cancelled');
        }
        await ctx.sendProgress(i, steps, `step ${i}`);
      }
      return { content: [{ type: 'text', text: 'done' }] };
    },
  );
  server.registerTool(
    { name: 'hang', inputSchema: { type: 'object' } },
    (_args, ctx) =>
      new Promise((_resolve, reject) => {
        log.started.push(`hang#${String(ctx.requestId)}`);
        ctx.signal.addEventListener('abort', () => {
          log.cancelled.push(`hang#${String(ctx.requestId)}`);
          reject(new Error('cancelled'));
        });
      }),
  );
  server.registerTool({ name: 'greet', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const who = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const mood = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'mood?' } }], maxTokens: 10 });
    const name = who.content?.name ?? '?';
    return { content: [{ type: 'text', text: `Hello ${name}, ${(mood.content as { text: string }).text}` }] };
  });
  server.registerTool({ name: 'parallel', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const [roots, answer] = await Promise.all([
      ctx.listRoots(),
      ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }),
    ]);
    return { content: [{ type: 'text', text: JSON.stringify({ roots: roots.roots, action: answer.action }) }] };
  });
  server.registerTool({ name: 'roots', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: 'text', text: roots.map((r) => r.uri).join(',') }] };
  });
  server.registerTool({ name: 'noisy', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    await ctx.log('debug', 'debug line');
    await ctx.log('warning', 'warning line');
    return { content: [] };
  });
  server.registerResource({ uri: 'demo://a', name: 'a', mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  server.registerResource({ uri: 'demo://b', name: 'b' }, (uri) => ({ contents: [{ uri, blob: 'Qg==' }] }));
  server.registerResourceTemplate(
    { uriTemplate: 'demo://items/{id}', name: 'item' },
    (uri, values) => ({ contents: [{ uri, text: `item ${String(values.id)}` }] }),
    {
      complete: { id: (value) => ['1', '2', '10'].filter((v) => v.startsWith(value)) },
    },
  );
  server.registerPrompt(
    { name: 'hello', arguments: [{ name: 'who', required: true }] },
    (args: Record<string, string>) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.who}` } }] }),
    { complete: { who: (value) => ['Ada', 'Alan', 'Grace'].filter((v) => v.startsWith(value)) } },
  );
  return { server, log };
}

/** A recording wrapper: `written` holds the exact JSON text of every message sent, in order. */
export function recording(transport: Transport): { transport: Transport; written: string[] } {
  const written: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    written.push(JSON.stringify(message));
    return send(message, options);
  };
  return { transport, written };
}

/** A client connected in memory to `server`. */
export async function connected(server: McpServer, options: ClientOptions = {}, info = { name: 'test-client', version: '1.0.0' }) {
  const [a, b] = createLinkedPair();
  await server.connect(b);
  const { transport, written } = recording(a);
  const client = new McpClient(info, options);
  await client.connect(transport);
  return { client, written, clientEnd: a, serverEnd: b };
}

/**
 * A scripted raw server: `handle(method, params, ctx)` answers requests (throw RpcError for errors, return a
 * never-settling promise to stay silent). Records every message it receives.
 */
export async function scripted(handle: (method: string, params: Record<string, unknown> | undefined, ctx: RequestContext) => unknown) {
  const [a, b] = createLinkedPair();
  const peer = new Peer({ onInternalError: () => {} });
  const received: RpcMessage[] = [];
  peer.setFallbackRequestHandler((method, params, ctx) => handle(method, params, ctx));
  const receive = peer.receive.bind(peer);
  peer.receive = (message, info) => {
    received.push(message as RpcMessage);
    receive(message, info);
  };
  await peer.connect(b);
  return { transport: a, peer, received, methods: () => received.map((m) => (m as { method?: string }).method ?? 'response') };
}

/** A legacy initialize result. */
export function initializeResult(protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = { tools: {} }) {
  return { protocolVersion, capabilities, serverInfo: { name: 'scripted', version: '0.0.1' } };
}

/** One turn of the event loop: lets every message in flight and every due callback run (no wall-clock wait). */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Waits for `condition`, re-checking it after every turn of the event loop — the in-memory transports deliver
 * each message in one — and fails after `maxTurns` turns (a bound on work, not on time).
 */
export async function until(condition: () => boolean, maxTurns = 10_000): Promise<void> {
  for (let turns = 0; !condition(); turns++) {
    if (turns >= maxTurns) throw new Error(`condition not met within ${maxTurns} turns of the event loop`);
    await turn();
  }
}

/** The seed wire trace: what a legacy client pinned to 2024-11-05 with no capabilities writes, byte for byte. */
export const SEED_TRACE = [
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"0.1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"conjugate","arguments":{"verb":"eat","tense":"past simple","person":"3rd singular"}}}',
];
