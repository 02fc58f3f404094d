/**
 * The §A13 grammar server (its built bin) driven by the official v1 and v2 clients over stdio: tools with
 * structured output and out-of-scope errors, the table as resources with verb completion, and the prompts.
 * Skipped until `servers/grammar/dist/bin.js` exists.
 */
import { afterAll, afterEach, expect, describe, test } from 'vitest';
import {
  closeAll,
  connectOfficial,
  GRAMMAR_BIN,
  GRAMMAR_BUILT,
  resourceTextOf,
  textOf,
  type Flavor,
} from './server-official-clients-helpers.js';

const leftovers: number[] = [];
afterEach(async () => {
  leftovers.push(...(await closeAll()));
});
afterAll(() => {
  // Every server process (and every v2 probe sibling) ended on its own when its client closed.
  expect(leftovers).toEqual([]);
});

const CLIENTS: Array<{ flavor: Flavor; era: 'legacy' | 'modern' }> = [
  { flavor: 'v1', era: 'legacy' },
  { flavor: 'v2', era: 'legacy' },
  { flavor: 'v2-auto', era: 'modern' },
];

describe.skipIf(!GRAMMAR_BUILT).each(CLIENTS)('official $flavor client → grammar server', ({ flavor, era }) => {
  const connect = () => connectOfficial(flavor, { bin: GRAMMAR_BIN });

  test('tools: the four §A13 tools, "ate" → "comió", out-of-scope verbs are tool errors', async () => {
    const connection = await connect();
    if (connection.v2) expect(connection.v2.getProtocolEra()).toBe(era);
    expect(connection.serverInfo()).toMatchObject({ name: 'wiremcp-grammar' });
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual([
      'conjugate',
      'lookup_irregular_verb',
      'lookup_spanish',
      'check_subject_verb_agreement',
    ]);
    const ate = await connection.callTool({ name: 'conjugate', arguments: { verb: 'eat', tense: 'past simple', person: '3rd singular' } });
    expect(ate.content).toEqual([{ type: 'text', text: 'ate' }]);
    expect(ate.structuredContent).toMatchObject({ verb: 'eat', english: 'ate', spanish: 'comió' });
    const spanish = await connection.callTool({ name: 'lookup_spanish', arguments: { english_form: 'ate' } });
    expect(textOf(spanish)).toBe('comió');
    const outOfScope = await connection.callTool({ name: 'conjugate', arguments: { verb: 'run', tense: 'past simple', person: '3sg' } });
    expect(outOfScope).toMatchObject({ isError: true, content: [{ type: 'text', text: "verb 'run' is out of scope (§A13)" }] });
    const agreement = await connection.callTool({ name: 'check_subject_verb_agreement', arguments: { subject: 'he', verb_form: 'eat' } });
    expect(agreement.structuredContent).toMatchObject({ agrees: false, expected: 'eats' });
  });

  test('resources and completion: the table, one verb through the template, verb names complete', async () => {
    const connection = await connect();
    const { resources } = await connection.client.listResources();
    expect(resources.map((resource: { uri: string }) => resource.uri)).toContain('grammar://a13');
    const table = await connection.client.readResource({ uri: 'grammar://a13' });
    expect(table.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('comió') });
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'grammar://a13/{verb}',
      'skill://grammar/{+path}',
    ]);
    expect(resourceTextOf(await connection.client.readResource({ uri: 'grammar://a13/eat' }))).toContain('ate');
    const completion = await connection.client.complete({
      ref: { type: 'ref/resource', uri: 'grammar://a13/{verb}' },
      argument: { name: 'verb', value: 'w' },
    });
    expect(completion.completion.values).toEqual(['work', 'walk', 'watch', 'want', 'write']);
  });

  test('prompts: explain_tense embeds the verb table; an unknown verb is -32602', async () => {
    const connection = await connect();
    const { prompts } = await connection.client.listPrompts();
    expect(prompts.map((prompt: { name: string }) => prompt.name)).toEqual(['explain_tense', 'conjugation_drill']);
    const explained = await connection.client.getPrompt({ name: 'explain_tense', arguments: { verb: 'eat', tense: 'past simple' } });
    expect(explained.messages[1]?.content).toMatchObject({ type: 'resource', resource: { uri: 'grammar://a13/eat' } });
    await expect(
      connection.client.getPrompt({ name: 'explain_tense', arguments: { verb: 'run', tense: 'past simple' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
