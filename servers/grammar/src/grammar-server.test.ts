import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import { MetaKey, type ClientRequestMethod, type CompleteResultOf, type JsonObject } from '@wiremcp/protocol';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGrammarServer } from './grammar-server.js';
import { loadTable, type Table } from './table/index.js';

let table: Table;
beforeAll(() => {
  table = loadTable();
});

/** What a request resolves with: the complete result of a spec method, or a JSON object. */
type CallResult<M extends string> = M extends ClientRequestMethod ? CompleteResultOf<M> : JsonObject;

/** The text of content block `index` of a tool result (failing the test when it is not a text block). */
function text(result: { content: ReadonlyArray<{ type: string }> }, index = 0): string {
  const block = result.content[index] as { type: string; text?: unknown } | undefined;
  if (block?.type !== 'text' || typeof block.text !== 'string') throw new Error(`no text block ${index} in ${JSON.stringify(result)}`);
  return block.text;
}

async function connect() {
  const server = createGrammarServer(table);
  const [a, b] = createLinkedPair();
  const peer = new Peer({ onInternalError: () => {} });
  await server.connect(b);
  await peer.connect(a);
  const call = <M extends string>(method: M, params?: JsonObject) => peer.request(method, params) as Promise<CallResult<M>>;
  return { server, peer, call };
}

async function legacy() {
  const client = await connect();
  await client.call('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'test', version: '0.1' } });
  await client.peer.notify('notifications/initialized');
  return client;
}

const modernMeta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };

describe('the seed session (2024-11-05)', () => {
  test('initialize answers tools capability and the server identity', async () => {
    const { call } = await connect();
    const result = await call('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'test', version: '0.1' },
    });
    expect(result.protocolVersion).toBe('2024-11-05');
    expect(result.capabilities.tools).toEqual({ listChanged: true });
    expect(result.serverInfo).toEqual({ name: 'wiremcp-grammar', version: '0.1.0' });
    expect(result.instructions).toMatch(/§A13/);
  });

  test('tools/list has the four tools with complete schemas and annotations', async () => {
    const { call } = await legacy();
    const { tools } = await call('tools/list');
    expect(tools.map((t) => t.name)).toEqual(['conjugate', 'lookup_irregular_verb', 'lookup_spanish', 'check_subject_verb_agreement']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.required).toEqual(expect.arrayContaining([expect.any(String)]));
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    expect(tools[0]?.inputSchema.properties).toMatchObject({
      tense: { enum: expect.arrayContaining(['past simple', 'past_simple']) },
      person: { enum: expect.arrayContaining(['3rd singular', '3sg']) },
    });
  });

  test('conjugate eat / past simple / 3rd singular is "ate", in both spellings of the seeds', async () => {
    const { call } = await legacy();
    const seed002 = await call('tools/call', {
      name: 'conjugate',
      arguments: { verb: 'eat', tense: 'past simple', person: '3rd singular' },
    });
    expect(seed002.content).toEqual([{ type: 'text', text: 'ate' }]);
    expect(seed002.isError).toBe(false);
    expect(seed002.structuredContent).toEqual({
      verb: 'eat',
      tense: 'past_simple',
      person: '3sg',
      english: 'ate',
      spanish: 'comió',
      irregular: true,
    });
    const seed000 = await call('tools/call', { name: 'conjugate', arguments: { verb: 'eat', tense: 'past_simple', person: '3sg' } });
    expect(seed000.content).toEqual([{ type: 'text', text: 'ate' }]);
  });

  test('lookup_spanish "ate" is "comió" and lists every matching row', async () => {
    const { call } = await legacy();
    const result = await call('tools/call', { name: 'lookup_spanish', arguments: { english_form: 'ate' } });
    expect(result.content).toEqual([{ type: 'text', text: 'comió' }]);
    const { matches } = result.structuredContent as { matches: Array<{ spanish: string }> };
    expect(matches.map((m) => m.spanish)).toEqual(['comí', 'comiste', 'comió']);
  });

  test('a verb outside the table is isError with the exact seed text; an unknown tool is -32602', async () => {
    const { call } = await legacy();
    expect(
      await call('tools/call', { name: 'conjugate', arguments: { verb: 'run', tense: 'past simple', person: '3rd singular' } }),
    ).toEqual({
      content: [{ type: 'text', text: "verb 'run' is out of scope (§A13)" }],
      isError: true,
    });
    await expect(call('tools/call', { name: 'unkn_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: 'unkn_tool'",
    });
  });
});

describe('the other tools', () => {
  test('lookup_irregular_verb gives principal parts and the Spanish verb', async () => {
    const { call } = await legacy();
    const go = await call('tools/call', { name: 'lookup_irregular_verb', arguments: { verb: 'go' } });
    expect(text(go)).toBe('go – went – gone (irregular; Spanish: ir, ido)');
    expect(go.structuredContent).toMatchObject({ verb: 'go', irregular: true, pastSimple: ['went'], pastParticiple: 'gone' });
    const work = await call('tools/call', { name: 'lookup_irregular_verb', arguments: { verb: 'work' } });
    expect(work.structuredContent).toMatchObject({ irregular: false });
  });

  test('check_subject_verb_agreement corrects "he eat" to "eats" and accepts "I am"', async () => {
    const { call } = await legacy();
    const wrong = await call('tools/call', { name: 'check_subject_verb_agreement', arguments: { subject: 'he', verb_form: 'eat' } });
    expect(wrong.structuredContent).toMatchObject({ status: 'checked', agrees: false, expected: 'eats' });
    const right = await call('tools/call', { name: 'check_subject_verb_agreement', arguments: { subject: 'I', verb_form: 'am' } });
    expect(right.structuredContent).toMatchObject({ agrees: true, expected: 'am' });
    const plural = await call('tools/call', { name: 'check_subject_verb_agreement', arguments: { subject: 'they', verb_form: 'eat' } });
    expect(plural.structuredContent).toMatchObject({ status: 'plural_subject', agrees: null });
  });

  test('arguments failing the schema are isError with the reason', async () => {
    const { call } = await legacy();
    const result = await call('tools/call', { name: 'conjugate', arguments: { verb: 'eat', tense: 'yesterday', person: '3sg' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('/tense: must be equal to one of the allowed values');
  });
});

describe('resources and prompts', () => {
  test('the whole table and one verb as markdown; the verb template completes verb names', async () => {
    const { call } = await legacy();
    const list = await call('resources/list');
    expect(list.resources[0]).toMatchObject({ uri: 'grammar://a13', mimeType: 'text/markdown' });
    // The table, 20 verbs, the SKILL.md of each of the 5 tense skills, and the conjugation-table view (MCP Apps).
    expect(list.resources).toHaveLength(27);
    const whole = await call('resources/read', { uri: 'grammar://a13' });
    expect(whole.contents[0]).toMatchObject({ text: expect.stringContaining('comió') });
    const eat = await call('resources/read', { uri: 'grammar://a13/eat' });
    const eatText = (eat.contents[0] as { text: string }).text;
    expect(eatText).toContain('comió');
    expect(eatText).not.toContain('escribió');
    await expect(call('resources/read', { uri: 'grammar://a13/run' })).rejects.toMatchObject({ code: -32002 });
    const completion = await call('completion/complete', {
      ref: { type: 'ref/resource', uri: 'grammar://a13/{verb}' },
      argument: { name: 'verb', value: 'w' },
    });
    expect(completion.completion.values).toEqual(['work', 'walk', 'watch', 'want', 'write']);
  });

  test('explain_tense embeds the verb resource; bad arguments are -32602', async () => {
    const { call } = await legacy();
    const prompt = await call('prompts/get', { name: 'explain_tense', arguments: { verb: 'eat', tense: 'past simple' } });
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('ate — comió') });
    expect(prompt.messages[1]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'grammar://a13/eat', mimeType: 'text/markdown' },
    });
    await expect(call('prompts/get', { name: 'explain_tense', arguments: { verb: 'run', tense: 'past simple' } })).rejects.toMatchObject({
      code: -32602,
      message: "verb 'run' is out of scope (§A13)",
    });
    const drill = await call('prompts/get', { name: 'conjugation_drill', arguments: { verb: 'be', questions: '3' } });
    expect((drill.messages[0]?.content as { text: string }).text.match(/^\d\. be —/gm)).toHaveLength(3);
  });
});

describe('2026-07-28', () => {
  test('the same tools answer statelessly, with caching hints on lists', async () => {
    const { call } = await connect();
    const discover = await call('server/discover', { _meta: modernMeta });
    expect(discover).toMatchObject({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public' });
    expect(discover.supportedVersions[0]).toBe('2026-07-28');
    const result = await call('tools/call', { name: 'lookup_spanish', arguments: { english_form: 'ate' }, _meta: modernMeta });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'comió' }] });
    expect(result._meta?.[MetaKey.serverInfo]?.name).toBe('wiremcp-grammar');
    await expect(call('resources/read', { uri: 'grammar://a13/run', _meta: modernMeta })).rejects.toMatchObject({ code: -32602 });
  });
});
