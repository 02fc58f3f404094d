/**
 * Authorization on every route, with the real `@wiremcp/auth` resource server: each method that names something with
 * a scope of its own (a tool, a prompt, a resource with a non-ASCII URI or spelled another way, a completion of a
 * prompt or resource-template argument, a listen stream's subscriptions, a task's follow-ups), in every era and with
 * every `Mcp-Name` form, is refused with 403 naming the scope to a token without it and served to a token with it.
 * Headers never decide: one that disagrees with the body is a 400, one that is malformed too.
 */
import type { JsonObject } from '@wiremcp/protocol';
import { MemoryTaskStore, type TaskStore } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import {
  authenticator,
  bearer,
  challengedScopes,
  modernCall,
  MODERN_META,
  nameHeader,
  POLICY,
  scopedServer,
  type NameForm,
} from './auth.test-util.js';
import { authorizeMessage } from './authorize.js';
import type { Call, HandlerCore } from './call.js';
import { createHttpHandler, type HttpHandler } from './http-handler.js';
import { BOTH, ENDPOINT, json, modernHeaders, post, SseReader } from './http.test-util.js';
import type { HttpHandlerOptions } from './options.js';

let handler: HttpHandler;
afterEach(async () => {
  await handler?.close(0);
});

async function protectedHandler(options: HttpHandlerOptions = {}, store?: TaskStore): Promise<HttpHandler> {
  handler = createHttpHandler(scopedServer(store), { authenticator: await authenticator(POLICY), ...options });
  return handler;
}

/** One operation that needs `scope` besides `mcp:read`; `mirrored` is what a 2026-07-28 request puts in `Mcp-Name`. */
interface Case {
  readonly label: string;
  readonly method: string;
  readonly params: JsonObject;
  readonly scope: string;
  readonly mirrored?: string;
}

const argument = { name: 'topic', value: '' };
const read = (label: string, uri: string, scope: string): Case => ({
  label,
  method: 'resources/read',
  params: { uri },
  scope,
  mirrored: uri,
});
const CASES: readonly Case[] = [
  { label: 'a tool', method: 'tools/call', params: { name: 'secret_tool', arguments: {} }, scope: 'x:tool', mirrored: 'secret_tool' },
  {
    label: 'a tool named constructor',
    method: 'tools/call',
    params: { name: 'constructor', arguments: {} },
    scope: 'x:odd',
    mirrored: 'constructor',
  },
  { label: 'a prompt', method: 'prompts/get', params: { name: 'secret_prompt' }, scope: 'x:prompt', mirrored: 'secret_prompt' },
  read('a resource', 'test://secret/a', 'x:res'),
  read('a non-ASCII resource URI', 'test://ünï/é', 'x:uni'),
  read('a resource URI with dot segments', 'test://files/public/../private/a', 'x:res'),
  read('a resource URI with escaped dot segments', 'test://files/public/%2E%2e/private/a', 'x:res'),
  read('a resource URI with escapes', 'test://%73ecret/%61', 'x:res'),
  read('a resource URI in capitals', 'TEST://secret/a', 'x:res'),
  read('a dot segment a private template reads as a value', 'test://files/private/..', 'x:res'),
  read('an escaped slash a template decodes into a private path', 'test://files/private%2Fa', 'x:res'),
  {
    label: 'completing a prompt argument',
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt', name: 'secret_prompt' }, argument },
    scope: 'x:prompt',
  },
  {
    label: 'completing a resource template argument',
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: 'test://secret/{id}' }, argument: { name: 'id', value: '' } },
    scope: 'x:res',
  },
];

const LEGACY_ONLY: readonly Case[] = [
  { label: 'a resource subscription', method: 'resources/subscribe', params: { uri: 'test://secret/a' }, scope: 'x:res' },
];

function expectRefused(response: Response, scope: string): void {
  expect(response.status).toBe(403);
  expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  expect(challengedScopes(response)).toEqual(['mcp:read', scope].sort());
}

describe.each(['client', 'base64'] as const)('2026-07-28 POSTs, Mcp-Name in the %s form', (form: NameForm) => {
  test.each(CASES)('$label: 403 without $scope, served with it', async ({ method, params, scope, mirrored }) => {
    await protectedHandler();
    const name = nameHeader(mirrored, form);
    const refused = await handler(modernCall(method, params, name, await bearer('alice')));
    expectRefused(refused, scope);
    const served = await handler(modernCall(method, params, name, await bearer('alice', `mcp:read ${scope}`)));
    expect(served.status).toBe(200);
  });
});

describe('2026-07-28 streams and headers', () => {
  test('a listen stream needs the scopes of every resource it subscribes to', async () => {
    await protectedHandler();
    const params = { notifications: { resourceSubscriptions: ['test://open/a', 'test://secret/a'] } };
    expectRefused(await handler(modernCall('subscriptions/listen', params, undefined, await bearer('alice'))), 'x:res');
    const stream = await handler(modernCall('subscriptions/listen', params, undefined, await bearer('alice', 'mcp:read x:res')));
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    const open = await handler(
      modernCall(
        'subscriptions/listen',
        { notifications: { resourceSubscriptions: ['test://open/a'], toolsListChanged: true } },
        undefined,
        {
          ...(await bearer('alice')),
        },
      ),
    );
    expect(open.status).toBe(200);
    await open.body?.cancel();
  });

  test.each([
    ['naming an open tool', 'open_tool'],
    ['malformed', '=?base64?c2VjcmV0X3Rvb2w?='],
    ['absent', undefined],
  ])('an Mcp-Name %s never lets a protected call through: 400, and the tool does not run', async (_label, header) => {
    await protectedHandler();
    const response = await handler(modernCall('tools/call', { name: 'secret_tool', arguments: {} }, header, await bearer('alice')));
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: -32020 } });
  });

  test('an Mcp-Name naming a protected tool for an open call is a 400 mismatch, not a 403', async () => {
    await protectedHandler();
    const response = await handler(modernCall('tools/call', { name: 'open_tool', arguments: {} }, 'secret_tool', await bearer('alice')));
    expect(response.status).toBe(400);
  });

  test('the 401 challenge names the scopes of the operation the headers announce, decoded as the body check decodes', async () => {
    await protectedHandler();
    const call = (name: string | undefined) => modernCall('tools/call', { name: 'secret_tool', arguments: {} }, name, {});
    const base64 = await handler(call(nameHeader('secret_tool', 'base64')));
    expect(base64.status).toBe(401);
    expect(challengedScopes(base64)).toEqual(['mcp:read', 'x:tool']);
    const malformed = await handler(call('=?base64?!!?='));
    expect(malformed.status).toBe(401);
    expect(challengedScopes(malformed)).toEqual(['mcp:read']);
  });

  test('a body naming a tool twice is read once: the last name is the one checked against Mcp-Name and authorized', async () => {
    await protectedHandler();
    const body = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"open_tool","name":"secret_tool","arguments":{},` +
      `"_meta":${JSON.stringify(MODERN_META)}}}`;
    const headers = async (name: string) => ({ ...modernHeaders('tools/call', name), ...(await bearer('alice')) });
    expect((await handler(post(body(1), await headers('open_tool')))).status).toBe(400);
    expectRefused(await handler(post(body(2), await headers('secret_tool'))), 'x:tool');
  });

  test('a name hidden behind a __proto__ key is no name: the protected tool does not run', async () => {
    await protectedHandler();
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"secret_tool"},"_meta":${JSON.stringify(MODERN_META)}}}`;
    const response = await handler(post(body, { ...modernHeaders('tools/call', 'secret_tool'), ...(await bearer('alice')) }));
    // The body names no tool (`__proto__` is an own key of the parsed params, not their prototype): invalid params.
    expect(await json(response)).toMatchObject({ error: { code: -32602 } });
  });

  test.each([
    ['a name that is not a string', 'tools/call', { name: ['secret_tool'] }],
    ['a completion reference of an unknown type', 'completion/complete', { ref: { type: 'ref/tool', name: 'secret_tool' }, argument }],
    [
      'subscriptions that are not strings',
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [{ uri: 'test://secret/a' }] } },
    ],
  ])('%s cannot be authorized: 400 -32602', async (_label, method, params) => {
    await protectedHandler();
    const response = await handler(modernCall(method, params as JsonObject, undefined, await bearer('alice', 'mcp:read x:tool x:res')));
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: -32602 } });
  });
});

/** Opens a legacy session with `headers` (a token); resolves with the headers of its later requests. */
async function openSession(version: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } };
  const opened = await handler(
    post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, { 'content-type': 'application/json', accept: BOTH, ...headers }),
  );
  const id = opened.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  await opened.body?.cancel();
  const session = { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': id!, 'mcp-protocol-version': version, ...headers };
  expect((await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session))).status).toBe(202);
  return session;
}

describe.each(['2025-11-25', '2025-06-18', '2025-03-26'])('legacy sessions of %s', (version) => {
  test.each([...CASES, ...LEGACY_ONLY])('$label: 403 without $scope, served with it', async ({ method, params, scope }) => {
    await protectedHandler();
    const reader = await openSession(version, await bearer('alice'));
    expectRefused(await handler(post({ jsonrpc: '2.0', id: 1, method, params }, reader)), scope);
    const granted = await openSession(version, await bearer('bob', `mcp:read ${scope}`));
    const served = await handler(post({ jsonrpc: '2.0', id: 1, method, params }, granted));
    expect(served.status).toBe(200);
    await served.body?.cancel();
  });
});

describe('legacy batches and HTTP+SSE', () => {
  test.each([...CASES, ...LEGACY_ONLY])(
    '2025-03-26 batch, $label: refused wherever it sits in the batch',
    async ({ method, params, scope }) => {
      await protectedHandler();
      const session = await openSession('2025-03-26', await bearer('alice'));
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const member = { jsonrpc: '2.0', id: 2, method, params };
      expectRefused(await handler(post([ping, member], session)), scope);
      expectRefused(await handler(post([member, ping], session)), scope);
      const allowed = await handler(
        post([ping, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'open_tool', arguments: {} } }], session),
      );
      expect(allowed.status).toBe(200);
      await allowed.body?.cancel();
    },
  );

  test('2024-11-05 HTTP+SSE: a message is authorized before it reaches the session', async () => {
    await protectedHandler({ legacySse: true });
    const headers = await bearer('alice');
    const stream = new SseReader(
      await handler(new Request('http://localhost/sse', { headers: { accept: 'text/event-stream', ...headers } })),
    );
    const endpoint = new URL((await stream.next())!.data, 'http://localhost');
    const send = (body: unknown) => handler(post(body, { 'content-type': 'application/json', ...headers }, endpoint.href));
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } };
    expect((await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init })).status).toBe(202);
    for (const { method, params, scope } of [...CASES, ...LEGACY_ONLY]) {
      expectRefused(await send({ jsonrpc: '2.0', id: 1, method, params }), scope);
    }
    expect((await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'open_tool', arguments: {} } })).status).toBe(202);
    await stream.cancel();
  });
});

/** The JSON-RPC answer of a POST (JSON, or the response event of an SSE stream). */
async function answer(response: Response): Promise<JsonObject> {
  if ((response.headers.get('content-type') ?? '').includes('application/json')) return json(response);
  const events = await new SseReader(response).all();
  return events.map((event) => event.message).find((message) => message?.id !== undefined) as JsonObject;
}

describe('task follow-ups need the scopes of the call that created the task', () => {
  test('2026-07-28: tasks/get, tasks/update and tasks/cancel of a task of secret_tool', async () => {
    await protectedHandler();
    const admin = await bearer('alice', 'mcp:read x:tool');
    const created = await answer(await handler(modernCall('tools/call', { name: 'secret_tool', arguments: {} }, 'secret_tool', admin)));
    const taskId = (created.result as { taskId: string }).taskId;
    expect(taskId).toBeTruthy();
    const reader = await bearer('alice');
    const followUps: [string, JsonObject][] = [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ];
    for (const form of ['client', 'base64'] as const) {
      for (const [method, params] of followUps)
        expectRefused(await handler(modernCall(method, params, nameHeader(taskId, form), reader)), 'x:tool');
    }
    expect((await handler(modernCall('tasks/get', { taskId }, taskId, admin))).status).toBe(200);
    // An open tool's task needs nothing more; an unknown task is the server's to answer.
    const open = await answer(await handler(modernCall('tools/call', { name: 'open_tool', arguments: {} }, 'open_tool', reader)));
    const openId = (open.result as { taskId: string }).taskId;
    expect((await handler(modernCall('tasks/get', { taskId: openId }, openId, reader))).status).toBe(200);
    expect((await handler(modernCall('tasks/get', { taskId: 'nope' }, 'nope', reader))).status).not.toBe(403);
  });

  test('2025-11-25: tasks/get, tasks/result and tasks/cancel in the session that created the task', async () => {
    await protectedHandler();
    const admin = await openSession('2025-11-25', await bearer('alice', 'mcp:read x:tool'));
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'secret_tool', arguments: {}, task: {} } };
    const created = await answer(await handler(post(call, admin)));
    const taskId = (created.result as { task: { taskId: string } }).task.taskId;
    // The same principal and session, with a token that lost the tool's scope.
    const reader = { ...admin, ...(await bearer('alice')) };
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expectRefused(await handler(post({ jsonrpc: '2.0', id: 2, method, params: { taskId } }, reader)), 'x:tool');
    }
    const listed = await handler(post({ jsonrpc: '2.0', id: 3, method: 'tasks/list', params: {} }, reader));
    expect(listed.status).toBe(200);
    const result = await answer(await handler(post({ jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }, admin)));
    expect(result).toMatchObject({ result: { content: [{ text: 'ran secret_tool' }] } });
  });

  test('a task store that fails the lookup fails the follow-up closed (500), and nothing is read', async () => {
    const store = new MemoryTaskStore();
    let broken = false;
    const get = store.get.bind(store);
    store.get = (taskId) => (broken ? Promise.reject(new Error('store down')) : get(taskId));
    await protectedHandler({ onError: () => {} }, store);
    const admin = await bearer('alice', 'mcp:read x:tool');
    const created = await answer(await handler(modernCall('tools/call', { name: 'secret_tool', arguments: {} }, 'secret_tool', admin)));
    const taskId = (created.result as { taskId: string }).taskId;
    broken = true;
    const response = await handler(modernCall('tasks/get', { taskId }, taskId, await bearer('alice')));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('ran secret_tool');
  });
});

describe('authorizeMessage itself', () => {
  test('lets only a response through without an operation: a batch or a malformed message is refused, not waved on', async () => {
    const core = { options: { authenticator: await authenticator(POLICY) }, server: {} } as unknown as HandlerCore;
    const principal = { subject: 'alice', scopes: ['mcp:read'], claims: {} };
    const call = { principal, resource: new URL(ENDPOINT) } as unknown as Call;
    const decide = (message: unknown) => authorizeMessage(core, call, message, { era: 'legacy' });
    const secret = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'secret_tool' } };
    expect(decide({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(decide({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } })).toBeUndefined();
    for (const hostile of [
      [secret],
      { ...secret, method: undefined, name: 'secret_tool' },
      null,
      'tools/call',
      { jsonrpc: '2.0', id: 1 },
    ]) {
      const refused = await decide(hostile);
      expect(refused?.status).toBe(400);
    }
    expect((await decide(secret))?.status).toBe(403);
    expect(await decide({ ...secret, params: { name: 'open_tool' } })).toBeUndefined();
  });
});
