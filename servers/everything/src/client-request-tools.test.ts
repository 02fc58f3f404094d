import type { InputParamsOf } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { DEFAULTS_SCHEMA, ENUMS_SCHEMA } from './client-request-tools.js';
import { ALL_CAPABILITIES, CANNED_ANSWERS, connectEverything, ERAS, type Answers, text } from './everything.test-util.js';

/** Answers that record every request the server made. */
function recording(): { answers: Answers; seen: Array<{ kind: string; params: Recorded }> } {
  const seen: Array<{ kind: string; params: Recorded }> = [];
  const answers: Answers = {
    sampling: (params) => (seen.push({ kind: 'sampling', params }), CANNED_ANSWERS.sampling!(params)),
    elicitation: (params) => (seen.push({ kind: 'elicitation', params }), CANNED_ANSWERS.elicitation!(params)),
    roots: (params) => (seen.push({ kind: 'roots', params }), CANNED_ANSWERS.roots!(params)),
  };
  return { seen, answers };
}

/** The params of an input request, as the assertions read them. */
type Recorded = InputParamsOf<'sampling/createMessage'> | InputParamsOf<'elicitation/create'> | InputParamsOf<'roots/list'>;

describe.each(ERAS)('tools that need the client (%s)', (era) => {
  test('test_sampling sends the prompt with maxTokens 100 and returns the model text', async () => {
    const { answers, seen } = recording();
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers });
    const result = await client.tool('test_sampling', { prompt: 'Test prompt for sampling' });
    expect(result.content).toEqual([{ type: 'text', text: 'LLM response: echo: Test prompt for sampling' }]);
    expect(seen).toEqual([
      {
        kind: 'sampling',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }], maxTokens: 100 },
      },
    ]);
  });

  test('test_sampling accepts an array of content blocks (2025-11-25 shape)', async () => {
    const client = await connectEverything(era, {
      capabilities: ALL_CAPABILITIES,
      answers: {
        sampling: () => ({
          role: 'assistant',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
          model: 'm',
        }),
      },
    });
    expect(text(await client.tool('test_sampling', { prompt: 'x' }))).toBe('LLM response: a\nb');
  });

  test('test_elicitation asks for username and email and reports the answer', async () => {
    const { answers, seen } = recording();
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers });
    const result = await client.tool('test_elicitation', { message: 'Please provide your information' });
    expect(text(result)).toBe('User response: action=accept, content={"username":"username-value","email":"email-value"}');
    expect(seen[0]!.params).toMatchObject({
      message: 'Please provide your information',
      requestedSchema: { required: ['username', 'email'] },
    });
  });

  test('a declined elicitation is reported, not an error', async () => {
    const client = await connectEverything(era, {
      capabilities: ALL_CAPABILITIES,
      answers: { elicitation: () => ({ action: 'decline' }) },
    });
    const result = await client.tool('test_elicitation', { message: 'm' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('User response: action=decline, content={}');
  });

  test('test_elicitation_sep1034_defaults and _sep1330_enums send their schemas', async () => {
    const { answers, seen } = recording();
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers });
    expect(text(await client.tool('test_elicitation_sep1034_defaults'))).toMatch(/^Elicitation completed: action=accept, content=/);
    expect(text(await client.tool('test_elicitation_sep1330_enums'))).toMatch(/^Elicitation completed: action=accept/);
    expect(seen.map((s) => ('requestedSchema' in s.params ? s.params.requestedSchema : undefined))).toEqual([
      DEFAULTS_SCHEMA,
      ENUMS_SCHEMA,
    ]);
    const props = DEFAULTS_SCHEMA.properties;
    expect([props.name.default, props.age.default, props.score.default, props.status.default, props.verified.default]).toEqual([
      'John Doe',
      30,
      95.5,
      'active',
      true,
    ]);
  });

  test('test_elicitation_url uses URL mode (with an elicitationId only in 2025-11-25)', async () => {
    const { answers, seen } = recording();
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers });
    const result = await client.tool('test_elicitation_url', { url: 'https://example.com/login' });
    expect(text(result)).toBe('URL elicitation completed: action=accept, content={}');
    expect(seen[0]!.params).toMatchObject({ mode: 'url', url: 'https://example.com/login' });
    expect('elicitationId' in seen[0]!.params && typeof seen[0]!.params.elicitationId === 'string').toBe(era === 'legacy');
  });

  test('test_list_roots returns the client roots as text and structured output', async () => {
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers: CANNED_ANSWERS });
    const result = await client.tool('test_list_roots');
    expect(text(result)).toBe('file:///workspace (workspace)\nfile:///tmp');
    expect(result.structuredContent).toEqual({ roots: [{ uri: 'file:///workspace', name: 'workspace' }, { uri: 'file:///tmp' }] });
  });

  test('test_streaming_elicitation reports progress and asks for confirmation', async () => {
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers: CANNED_ANSWERS });
    const progress: number[] = [];
    const result = await client.tool('test_streaming_elicitation', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(text(result)).toBe('Streaming complete: action=accept, content={"ok":true}');
    expect(progress.at(-1)).toBe(100);
  });

  test('a malformed client answer becomes a readable tool error', async () => {
    const client = await connectEverything(era, { capabilities: ALL_CAPABILITIES, answers: { elicitation: () => ({ action: 'maybe' }) } });
    const result = await client.tool('test_elicitation', { message: 'm' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/invalid action "maybe"/);
  });
});

describe('a client without the capability', () => {
  test('legacy: the tool answers isError naming the capability', async () => {
    const client = await connectEverything('legacy');
    for (const [name, args, capability] of [
      ['test_sampling', { prompt: 'x' }, 'sampling'],
      ['test_missing_capability', {}, 'sampling'],
      ['test_elicitation', { message: 'x' }, 'elicitation'],
      ['test_list_roots', {}, 'roots'],
    ] as const) {
      const result = await client.tool(name, args);
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`did not declare the ${capability}`);
    }
  });

  test('legacy: form elicitation does not imply URL elicitation', async () => {
    const client = await connectEverything('legacy', { capabilities: { elicitation: {} }, answers: CANNED_ANSWERS });
    const result = await client.tool('test_elicitation_url');
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('elicitation.url');
  });

  test('2026-07-28: -32021 with the missing capability as a ClientCapabilities object', async () => {
    const client = await connectEverything('modern');
    await expect(client.tool('test_missing_capability')).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    await expect(client.tool('test_streaming_elicitation')).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    await expect(client.tool('test_elicitation_url')).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });
});
