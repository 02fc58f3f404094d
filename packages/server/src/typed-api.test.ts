// The server API infers params and results at every call site from the generated method maps. The type
// assertions are checked by the root `tsc -p tsconfig.json`; the calls also run, over a connection and `dispatch`.
import type {
  CallToolResult as WireCallToolResult,
  EraNeutralParams,
  EraNeutralResult,
  JsonObject,
  RequestId,
  RpcNotification,
  RpcResponse,
  Spec2025_11_25,
  Spec2026_07_28,
} from '@wiremcp/protocol';
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { HandlerContext } from './handler-context.js';
import { McpServer } from './mcp-server.js';
import type { DispatchExchange } from './dispatch.js';
import { rawClient } from './server.test-util.js';
import type { CallToolResult, CreateMessageParams, ElicitParams, ElicitResult, ListRootsResult, ToolDefinition } from './types.js';

describe('setRequestHandler', () => {
  test('infers the params and result of a spec method, with _meta and resultType optional', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.setRequestHandler('tools/call', (params, ctx) => {
      expectTypeOf(params).toEqualTypeOf<EraNeutralParams<'tools/call'>>();
      expectTypeOf(params.name).toEqualTypeOf<string>();
      expectTypeOf(params._meta).toEqualTypeOf<Spec2026_07_28.RequestMetaObject | undefined>();
      expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
      return { content: [{ type: 'text', text: `called ${params.name}` }] };
    });
    s.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    // @ts-expect-error -- a tools/call result needs `content`
    new McpServer({ name: 'u', version: '1' }).setRequestHandler('tools/call', () => ({ contents: [] }));
    const client = await rawClient(s);
    await client.initialize();
    const result = await client.request('tools/call', { name: 'x' });
    expectTypeOf(result).toEqualTypeOf<EraNeutralResult<'tools/call'>>();
    expect(result).toEqual({ content: [{ type: 'text', text: 'called x' }] });
  });

  test('takes any JSON object for a method outside the spec', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.setRequestHandler('acme/sum', (params) => {
      expectTypeOf(params).toEqualTypeOf<JsonObject | undefined>();
      return { sum: Number(params?.a) + Number(params?.b) };
    });
    const client = await rawClient(s);
    await client.initialize();
    expect(await client.request('acme/sum', { a: 2, b: 3 })).toEqual({ sum: 5 });
  });
});

describe('handler contexts', () => {
  test('type elicit, sample and listRoots by the input request they make', () => {
    expectTypeOf<HandlerContext['elicit']>().parameter(0).toEqualTypeOf<ElicitParams>();
    expectTypeOf<HandlerContext['elicit']>().returns.toEqualTypeOf<Promise<ElicitResult>>();
    expectTypeOf<ElicitResult>().toEqualTypeOf<Spec2026_07_28.ElicitResult | Spec2025_11_25.ElicitResult>();
    expectTypeOf<HandlerContext['sample']>().parameter(0).toEqualTypeOf<CreateMessageParams>();
    expectTypeOf<HandlerContext['listRoots']>().returns.toEqualTypeOf<Promise<ListRootsResult>>();
    expectTypeOf<HandlerContext['requestId']>().toEqualTypeOf<RequestId>();
    // Both revisions' URL mode: 2025-11-25 correlates by `elicitationId`, 2026-07-28 has no such field.
    const legacyUrl: ElicitParams = { mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' };
    const modernUrl: ElicitParams = { mode: 'url', message: 'Sign in', url: 'https://example.com' };
    expect([legacyUrl.mode, modernUrl.mode]).toEqual(['url', 'url']);
  });

  test('answers of elicit are read as the spec types them', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.registerTool({ name: 'greet', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      expectTypeOf(answer.action).toEqualTypeOf<'accept' | 'cancel' | 'decline'>();
      return { content: [{ type: 'text', text: `${answer.action} ${String(answer.content?.name)}` }] };
    });
    const client = await rawClient(s);
    client.peer.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.initialize('2025-11-25', { elicitation: {} });
    expect(await client.request('tools/call', { name: 'greet' })).toEqual({ content: [{ type: 'text', text: 'accept Ada' }] });
  });
});

describe('authoring types', () => {
  test('are the generated spec shapes without what the server adds', () => {
    expectTypeOf<ToolDefinition>().toEqualTypeOf<Spec2026_07_28.Tool>();
    expectTypeOf<CallToolResult>().not.toHaveProperty('resultType');
    expectTypeOf<CallToolResult['content']>().toEqualTypeOf<WireCallToolResult['content'] | undefined>();
    // @ts-expect-error -- the server stamps resultType; an author does not write it
    const stamped: CallToolResult = { resultType: 'complete', content: [] };
    const structured: CallToolResult = { structuredContent: { celsius: 21 } };
    expect([stamped.content, structured.structuredContent]).toEqual([[], { celsius: 21 }]);
  });

  test('a tool handler receives the arguments type it declares and returns a CallToolResult', () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, (args: { text: string }, ctx) => {
      expectTypeOf(args.text).toEqualTypeOf<string>();
      expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
      return { content: [{ type: 'text', text: args.text }] };
    });
    // @ts-expect-error -- `text` blocks carry `text`, not `value`
    s.registerTool({ name: 'bad', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', value: 'x' }] }));
  });
});

describe('dispatch', () => {
  test('takes any message and an exchange, and resolves with a response or undefined', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    expectTypeOf(s.dispatch).parameter(1).toEqualTypeOf<DispatchExchange>();
    expectTypeOf(s.dispatch).returns.toEqualTypeOf<Promise<RpcResponse | undefined>>();
    expectTypeOf<DispatchExchange['notify']>().parameter(0).toEqualTypeOf<RpcNotification>();
    expect(await s.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, { notify: () => {} })).toBeUndefined();
  });
});
