// The public type surface (unqualified names, revision namespaces, closed objects, method maps). The type-level
// assertions are checked by the root `tsc -p tsconfig.json`; each typed value is also run through the validator
// of its revision, so types and validators cannot drift apart.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CreateTaskResult,
  ElicitRequestParams,
  InitializeRequest,
  InputRequiredResult,
  JSONRPCError,
  JSONRPCErrorResponse,
  PingRequest,
  Result,
  Spec2024_11_05,
  Spec2025_06_18,
  Spec2025_11_25,
  Spec2026_07_28,
  Task,
  Tool,
} from '../src/generated/index.js';
import type {
  ClientNotificationMap,
  ClientRequestMap,
  RequestParamsOf,
  RequestResultOf,
  ServerNotificationMap,
  ServerRequestMap,
} from '../src/method-types.js';
import * as v2024 from '../src/validators/2024-11-05.js';
import * as v2025b from '../src/validators/2025-06-18.js';
import * as v2025c from '../src/validators/2025-11-25.js';
import * as v2026 from '../src/validators/2026-07-28.js';

describe('unqualified names', () => {
  it('are the 2026-07-28 definitions where one exists', () => {
    expectTypeOf<ClientCapabilities>().toEqualTypeOf<Spec2026_07_28.ClientCapabilities>();
    expectTypeOf<Tool>().toEqualTypeOf<Spec2026_07_28.Tool>();
    expectTypeOf<ClientCapabilities>().toHaveProperty('extensions');
    expectTypeOf<Spec2025_11_25.ClientCapabilities>().toHaveProperty('tasks');
    const capabilities: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': {} }, elicitation: { form: {} } };
    expect(v2026.validate('ClientCapabilities', capabilities).valid).toBe(true);
  });

  it('take legacy-only names from the newest revision that defines them', () => {
    expectTypeOf<InitializeRequest>().toEqualTypeOf<Spec2025_11_25.InitializeRequest>();
    expectTypeOf<PingRequest>().toEqualTypeOf<Spec2025_11_25.PingRequest>();
    expectTypeOf<Task>().toEqualTypeOf<Spec2025_11_25.Task>();
    expectTypeOf<JSONRPCError>().toEqualTypeOf<Spec2025_06_18.JSONRPCError>();
    const ping: PingRequest = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect(v2025c.validate('PingRequest', ping).valid).toBe(true);
  });

  it('keep the renamed error response apart: JSONRPCErrorResponse (id optional) vs legacy JSONRPCError (id required)', () => {
    const modern: JSONRPCErrorResponse = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    // @ts-expect-error -- legacy JSONRPCError requires an id
    const legacy: JSONRPCError = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    expect(v2026.validate('JSONRPCErrorResponse', modern).valid).toBe(true);
    expect(v2025b.validate('JSONRPCError', legacy).valid).toBe(false);
  });
});

describe('object types', () => {
  it('are closed where the schema lists properties: excess properties are compile errors', () => {
    const result: CallToolResult = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };
    // @ts-expect-error -- `contents` is not a CallToolResult property (a typo of `content`)
    const typo: CallToolResult = { resultType: 'complete', content: [], contents: [] };
    expect(v2026.validate('CallToolResult', result).valid).toBe(true);
    // The schema itself allows extra keys: the validator accepts what the type refuses.
    expect(v2026.validate('CallToolResult', typo).valid).toBe(true);
  });

  it('stay open where the spec allows any key: _meta, Result, tool input schemas', () => {
    const result: CallToolResult = {
      resultType: 'complete',
      content: [],
      _meta: { 'com.example/trace': 'abc', 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
    };
    const base: Result = { resultType: 'complete', anything: [1, 2] };
    const tool: Tool = { name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } };
    expect(v2026.validate('CallToolResult', result).valid).toBe(true);
    expect(v2026.validate('Result', base).valid).toBe(true);
    expect(v2026.validate('Tool', tool).valid).toBe(true);
  });

  it('follow the revision: Tool.title is typed from 2025-06-18 (validators accept it everywhere)', () => {
    const modern: Spec2025_06_18.Tool = { name: 'w', title: 'Weather', inputSchema: { type: 'object' } };
    // @ts-expect-error -- 2024-11-05 Tool has no `title`
    const old: Spec2024_11_05.Tool = { name: 'w', title: 'Weather', inputSchema: { type: 'object' } };
    expect(v2025b.validate('Tool', modern).valid).toBe(true);
    expect(v2024.validate('Tool', old).valid).toBe(true);
  });

  it('type const, anyOf and JSON values precisely', () => {
    expectTypeOf<Spec2026_07_28.JSONRPCRequest['jsonrpc']>().toEqualTypeOf<'2.0'>();
    expectTypeOf<Spec2026_07_28.CallToolRequest['method']>().toEqualTypeOf<'tools/call'>();
    expectTypeOf<ElicitRequestParams>().toEqualTypeOf<Spec2026_07_28.ElicitRequestFormParams | Spec2026_07_28.ElicitRequestURLParams>();
    expectTypeOf<CallToolResult['structuredContent']>().toEqualTypeOf<unknown>();
    expectTypeOf<Spec2026_07_28.Error['data']>().toEqualTypeOf<unknown>();
    const ttl: Spec2025_11_25.Task['ttl'] = null;
    expect(ttl).toBeNull();
  });
});

describe('method maps', () => {
  it('infer params and results of client requests', () => {
    expectTypeOf<ClientRequestMap['tools/call']['params']>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<ClientRequestMap['tools/call']['result']>().toEqualTypeOf<CallToolResult | InputRequiredResult>();
    expectTypeOf<ClientRequestMap['tools/list']['result']>().toEqualTypeOf<Spec2026_07_28.ListToolsResult>();
    expectTypeOf<ClientRequestMap['initialize']['params']>().toEqualTypeOf<Spec2025_11_25.InitializeRequestParams>();
    expectTypeOf<ClientRequestMap['initialize']['result']>().toEqualTypeOf<Spec2025_11_25.InitializeResult>();
    expectTypeOf<ClientRequestMap['server/discover']['result']>().toEqualTypeOf<Spec2026_07_28.DiscoverResult>();
    expectTypeOf<RequestParamsOf<'ping'>>().toEqualTypeOf<Spec2025_11_25.RequestParams | undefined>();
    expectTypeOf<RequestResultOf<'ping'>>().toEqualTypeOf<Spec2025_11_25.EmptyResult>();
    const params: RequestParamsOf<'tools/call'> = {
      name: 'get_weather',
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
    };
    expect(v2026.validate('CallToolRequestParams', params).valid).toBe(true);
  });

  it('infer params and results of server requests (legacy), including task-augmented answers', () => {
    expectTypeOf<ServerRequestMap['elicitation/create']['params']>().toEqualTypeOf<Spec2025_11_25.ElicitRequestParams>();
    expectTypeOf<ServerRequestMap['sampling/createMessage']['result']>().toEqualTypeOf<
      Spec2025_11_25.CreateMessageResult | CreateTaskResult
    >();
    expectTypeOf<ServerRequestMap['roots/list']['result']>().toEqualTypeOf<Spec2025_11_25.ListRootsResult>();
    expectTypeOf<ServerRequestMap['ping']>().toEqualTypeOf<ClientRequestMap['ping']>();
    const sampled: RequestResultOf<'sampling/createMessage'> = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    expect(v2025c.validate('CreateMessageResult', sampled).valid).toBe(true);
  });

  it('map notifications to their params, in the maps of the sides that send them', () => {
    expectTypeOf<ClientNotificationMap['notifications/cancelled']>().toEqualTypeOf<Spec2026_07_28.CancelledNotificationParams>();
    expectTypeOf<ServerNotificationMap['notifications/message']>().toEqualTypeOf<Spec2026_07_28.LoggingMessageNotificationParams>();
    expectTypeOf<ClientNotificationMap['notifications/initialized']>().toEqualTypeOf<Spec2025_11_25.NotificationParams | undefined>();
    expectTypeOf<ClientNotificationMap>().toHaveProperty('notifications/progress');
    expectTypeOf<ServerNotificationMap>().toHaveProperty('notifications/progress');
    expectTypeOf<ServerNotificationMap>().not.toHaveProperty('notifications/initialized');
    expectTypeOf<ClientRequestMap>().not.toHaveProperty('sampling/createMessage');
    const cancelled: ClientNotificationMap['notifications/cancelled'] = { requestId: 1, reason: 'user' };
    expect(v2026.validate('CancelledNotificationParams', cancelled).valid).toBe(true);
  });
});
