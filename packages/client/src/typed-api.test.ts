// The client API infers params and results at every call site from the generated method maps. The type assertions
// are checked by the root `tsc -p tsconfig.json`; the calls also run against an in-memory McpServer.
import type {
  CallToolResult as WireCallToolResult,
  EraNeutralParams,
  JsonObject,
  Spec2025_11_25,
  Spec2026_07_28,
  WithOptionalKeys,
} from '@wiremcp/protocol';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { connected, demoServer } from './client.test-util.js';
import { McpClient } from './client.js';
import type { InputContext, SamplingHandler } from './options.js';
import type {
  CallToolResult,
  ClientRequestResult,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
  ListToolsResult,
  LoggingMessageParams,
  ReadResourceResult,
  ServerCapabilities,
  Tool,
} from './types.js';

describe('typed methods', () => {
  test('resolve with the complete result of their method, in either era', async () => {
    const { client } = await connected(demoServer().server, { era: 'legacy' });
    const result = await client.callTool('echo', { text: 'hi' });
    expectTypeOf(result).toEqualTypeOf<CallToolResult>();
    expectTypeOf<CallToolResult>().toEqualTypeOf<WithOptionalKeys<WireCallToolResult, 'resultType'>>();
    expectTypeOf(result.content).toEqualTypeOf<Spec2026_07_28.ContentBlock[]>();
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const tools = await client.listTools();
    expectTypeOf(tools).toEqualTypeOf<ListToolsResult>();
    expectTypeOf(tools.tools).toEqualTypeOf<Tool[]>();
    expectTypeOf<Tool>().toEqualTypeOf<Spec2026_07_28.Tool | Spec2025_11_25.Tool>();
    expectTypeOf(client.readResource).returns.toEqualTypeOf<Promise<ReadResourceResult>>();
    expectTypeOf<McpClient['serverCapabilities']>().toEqualTypeOf<ServerCapabilities | undefined>();
    await client.close();
  });

  test('request() is typed for spec methods and open for others', async () => {
    const { client } = await connected(demoServer().server);
    const listed = await client.request('tools/list', {});
    expectTypeOf(listed).toEqualTypeOf<ClientRequestResult<'tools/list'>>();
    expect(listed.tools.map((tool) => tool.name)).toContain('echo');
    const request = client.request.bind(client);
    expectTypeOf(request<'tools/call'>)
      .parameter(1)
      .toEqualTypeOf<EraNeutralParams<'tools/call'> | undefined>();
    expectTypeOf(request<'acme/x'>).returns.toEqualTypeOf<Promise<JsonObject>>();
    // @ts-expect-error -- tools/call needs a name
    await client.request('tools/call', { arguments: {} }).catch(() => {});
    await client.close();
  });

  test('notify() is typed for the notifications a client sends', () => {
    const { notify } = McpClient.prototype;
    expectTypeOf(notify<'notifications/cancelled'>)
      .parameter(1)
      .toEqualTypeOf<Spec2026_07_28.CancelledNotificationParams | undefined>();
    expectTypeOf(notify<'acme/ping'>)
      .parameter(1)
      .toEqualTypeOf<JsonObject | undefined>();
  });

  test('listeners get the params of their notification', () => {
    expectTypeOf<Parameters<McpClient['onLogMessage']>[0]>().parameter(0).toEqualTypeOf<LoggingMessageParams>();
    const { on } = McpClient.prototype;
    expectTypeOf(on<'notifications/progress'>)
      .parameter(1)
      .parameter(0)
      .toEqualTypeOf<Spec2026_07_28.ProgressNotificationParams>();
  });
});

describe('input handlers', () => {
  test('take the params of both revisions and answer the result of either', () => {
    expectTypeOf<SamplingHandler>().parameters.toEqualTypeOf<[CreateMessageParams, InputContext]>();
    expectTypeOf<CreateMessageParams>().toEqualTypeOf<
      Spec2026_07_28.CreateMessageRequestParams | Omit<Spec2025_11_25.CreateMessageRequestParams, 'task'>
    >();
    expectTypeOf<ElicitResult>().toEqualTypeOf<Spec2026_07_28.ElicitResult | Spec2025_11_25.ElicitResult>();
    expectTypeOf<ListRootsResult>().toEqualTypeOf<Spec2026_07_28.ListRootsResult | Spec2025_11_25.ListRootsResult>();
    const elicit = (params: ElicitParams): ElicitResult =>
      params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: {} };
    const answer: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    expect([elicit({ mode: 'url', message: 'm', url: 'https://example.com' }).action, answer.model]).toEqual(['decline', 'm']);
  });
});
