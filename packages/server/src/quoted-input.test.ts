// Error answers quote client input up to MAX_QUOTED_INPUT_LENGTH code units, never whole: 1 MiB of method name,
// version, tool or prompt name, URI, log level or completion reference comes back as 128 characters and `…`.
import { MAX_QUOTED_INPUT_LENGTH, MetaKey, type JsonObject } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { rawClient } from './server.test-util.js';

const MIB = 1024 * 1024;
const huge = (char: string): string => char.repeat(MIB);
const cut = (char: string): string => `${char.repeat(MAX_QUOTED_INPUT_LENGTH)}…`;

function server(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const s = new McpServer({ name: 'bounded', version: '1.0.0' }, options);
  s.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [] }));
  s.registerPrompt({ name: 'p' }, () => ({ messages: [] }), { complete: { a: () => [] } });
  s.registerResource({ uri: 'demo://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  return s;
}

/** The error of a rejected request, and the length of its JSON: what went back on the wire. */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: JsonObject; size: number }> {
  const error = (await request.then(
    () => {
      throw new Error('the request was not refused');
    },
    (e: unknown) => e,
  )) as { code: number; message: string; data?: JsonObject };
  return { code: error.code, message: error.message, data: error.data, size: JSON.stringify(error).length };
}

describe('over a connection', () => {
  test('an unknown 1 MiB method name', async () => {
    const client = await rawClient(server());
    await client.initialize();
    const error = await refusal(client.peer.request(huge('m'), {}));
    expect(error).toMatchObject({ code: -32601, message: `Method not found: ${cut('m')}` });
    expect(error.size).toBeLessThan(1000);
  });

  test('a 1 MiB protocolVersion in _meta (-32022 data.requested)', async () => {
    const client = await rawClient(server());
    const error = await refusal(client.modern('tools/list', {}, { [MetaKey.protocolVersion]: huge('9') }));
    expect(error.code).toBe(-32022);
    expect(error.data?.requested).toBe(cut('9'));
    expect(error.size).toBeLessThan(1000);
  });

  test('a 1 MiB protocolVersion in initialize to a server without legacy revisions', async () => {
    const client = await rawClient(server({ protocolVersions: ['2026-07-28'] }));
    const error = await refusal(client.peer.request('initialize', { protocolVersion: huge('1'), capabilities: {} }));
    expect(error.code).toBe(-32022);
    expect(error.data?.requested).toBe(cut('1'));
  });

  test('1 MiB tool and prompt names, resource URIs and completion references', async () => {
    const client = await rawClient(server());
    await client.initialize();
    expect(await refusal(client.request('tools/call', { name: huge('t') }))).toMatchObject({
      code: -32602,
      message: `Unknown tool: '${cut('t')}'`,
    });
    expect(await refusal(client.request('prompts/get', { name: huge('p') }))).toMatchObject({
      code: -32602,
      message: `Unknown prompt: '${cut('p')}'`,
    });
    const missing = await refusal(client.request('resources/read', { uri: `demo://${huge('u')}` }));
    expect(missing).toMatchObject({ code: -32002, data: { uri: `demo://${'u'.repeat(MAX_QUOTED_INPUT_LENGTH - 7)}…` } });
    expect(missing.size).toBeLessThan(1000);
    const completion = await refusal(
      client.request('completion/complete', { ref: { type: 'ref/prompt', name: huge('c') }, argument: { name: 'a', value: '' } }),
    );
    expect(completion).toMatchObject({ code: -32602, message: `Unknown prompt: '${cut('c')}'` });
    const template = await refusal(
      client.request('completion/complete', { ref: { type: 'ref/resource', uri: huge('r') }, argument: { name: 'a', value: '' } }),
    );
    expect(template.message).toBe(`Unknown resource template: '${cut('r')}'`);
  });

  test('1 MiB log levels, in logging/setLevel and in _meta', async () => {
    const client = await rawClient(server());
    await client.initialize();
    const setLevel = await refusal(client.peer.request('logging/setLevel', { level: huge('l') }));
    expect(setLevel).toMatchObject({
      code: -32602,
      message: `Invalid params: unknown log level "${'l'.repeat(MAX_QUOTED_INPUT_LENGTH)}"…`,
    });
    const meta = await refusal(client.modern('tools/list', {}, { [MetaKey.logLevel]: huge('v') }));
    expect(meta.code).toBe(-32602);
    expect(meta.size).toBeLessThan(1000);
  });

  test('a 1 MiB prompt argument name', async () => {
    const client = await rawClient(server());
    await client.initialize();
    const error = await refusal(client.peer.request('prompts/get', { name: 'p', arguments: { [huge('k')]: 1 } }));
    expect(error.code).toBe(-32602);
    expect(error.size).toBeLessThan(1000);
  });
});

test('over dispatch: a 1 MiB method name and version are cut alike', async () => {
  const s = server();
  const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };
  const exchange = { notify: () => {} };
  const unknown = await s.dispatch({ jsonrpc: '2.0', id: 1, method: huge('d'), params: { _meta: meta } }, exchange);
  expect(unknown).toMatchObject({ error: { code: -32601, message: `Method not found: ${cut('d')}` } });
  const version = await s.dispatch(
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...meta, [MetaKey.protocolVersion]: huge('2') } } },
    exchange,
  );
  expect(JSON.stringify(version).length).toBeLessThan(1000);
});
