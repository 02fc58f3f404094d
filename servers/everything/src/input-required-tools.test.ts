import { describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES, CANNED_ANSWERS, connectEverything, text } from './everything.test-util.js';

const ELICIT_NAME = { action: 'accept', content: { name: 'Alice' } };

async function modernClient(capabilities: Record<string, unknown> = ALL_CAPABILITIES) {
  return connectEverything('modern', { capabilities, answers: CANNED_ANSWERS });
}

describe('input-required fixtures on the wire (2026-07-28)', () => {
  test('elicitation: round 1 asks under "user_name" with resultType; the retry completes with a greeting', async () => {
    const client = await modernClient();
    const first = await client.tool('test_input_required_result_elicitation', {}, { followInputs: false });
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      },
      requestState: expect.any(String),
    });
    const done = await client.call('tools/call', {
      name: 'test_input_required_result_elicitation',
      arguments: {},
      inputResponses: { user_name: ELICIT_NAME, unknown_extra_key: { action: 'accept', content: { foo: 'bar' } } },
      requestState: first.requestState,
    });
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  test('sampling, roots: the spec keys "capital_question" and "client_roots"', async () => {
    const client = await modernClient();
    const sampled = await client.tool('test_input_required_result_sampling');
    expect(text(sampled)).toBe('Sampling response: echo: What is the capital of France?');
    const roots = await client.tool('test_input_required_result_list_roots');
    expect(text(roots)).toBe('Client roots:\nfile:///workspace (workspace)\nfile:///tmp');
    expect(client.inputRounds).toEqual([
      {
        capital_question: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
        },
      },
      { client_roots: { method: 'roots/list', params: {} } },
    ]);
  });

  test('request state: the retry echoes it and the answer says state-ok', async () => {
    const client = await modernClient();
    const result = await client.tool('test_input_required_result_request_state');
    expect(text(result)).toBe('state-ok: action=accept, content={"ok":true}');
    expect(Object.keys(client.inputRounds[0]!)).toEqual(['confirm']);
  });

  test('multiple inputs come in one round; multi-round asks step1, then step2', async () => {
    const client = await modernClient();
    const multiple = await client.tool('test_input_required_result_multiple_inputs');
    expect(text(multiple)).toBe('All inputs received: name=name-value, greeting=echo: Generate a greeting, roots=2');
    expect(Object.keys(client.inputRounds[0]!).sort()).toEqual(['client_roots', 'greeting', 'user_name']);
    const rounds = await client.tool('test_input_required_result_multi_round');
    expect(text(rounds)).toBe('Multi-round complete: name=name-value, color=color-value');
    expect(client.inputRounds.slice(1).map((round) => Object.keys(round))).toEqual([['step1'], ['step2']]);
  });

  test('a tampered requestState is refused with -32602', async () => {
    const client = await modernClient();
    const first = await client.tool('test_input_required_result_tampered_state', {}, { followInputs: false });
    const state = first.requestState as string;
    const tampered = (state[0] === 'A' ? 'B' : 'A') + state.slice(1);
    await expect(
      client.call('tools/call', {
        name: 'test_input_required_result_tampered_state',
        arguments: {},
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState: tampered,
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  test('capabilities: only the kinds the request declared are asked for', async () => {
    const samplingOnly = await modernClient({ sampling: {} });
    const first = await samplingOnly.tool('test_input_required_result_capabilities', {}, { followInputs: false });
    expect(Object.values(first.inputRequests ?? {}).map((r) => r.method)).toEqual(['sampling/createMessage']);
    expect(text(await samplingOnly.tool('test_input_required_result_capabilities'))).toBe('capabilities-ok: received sample_input');
    const none = await modernClient({});
    expect(text(await none.tool('test_input_required_result_capabilities'))).toBe('No supported capabilities declared');
    const all = await modernClient();
    expect(text(await all.tool('test_input_required_result_capabilities'))).toBe(
      'capabilities-ok: received elicit_input,sample_input,roots_input',
    );
  });

  test('input-required results only come from tools/call, prompts/get and resources/read', async () => {
    const client = await modernClient();
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'server/discover']) {
      expect((await client.modern(method)).resultType).toBe('complete');
    }
  });

  test('inputResponses sent without a requestState are taken as first-round answers', async () => {
    const client = await modernClient();
    const result = await client.call('tools/call', {
      name: 'test_input_required_result_elicitation',
      arguments: {},
      inputResponses: { user_name: ELICIT_NAME },
    });
    expect(result.resultType).toBe('complete');
  });
});

describe('the same fixtures in a legacy session', () => {
  test('each input is an ordinary server-to-client request', async () => {
    const client = await connectEverything('legacy', { capabilities: ALL_CAPABILITIES, answers: CANNED_ANSWERS });
    expect(text(await client.tool('test_input_required_result_elicitation'))).toBe('Hello, name-value!');
    expect(text(await client.tool('test_input_required_result_request_state'))).toMatch(/^answered directly \(legacy session/);
    expect(text(await client.tool('test_input_required_result_multi_round'))).toBe(
      'Multi-round complete: name=name-value, color=color-value',
    );
    expect(text(await client.tool('test_input_required_result_capabilities'))).toBe(
      'capabilities-ok: received elicit_input,sample_input,roots_input',
    );
    expect(text(await client.tool('test_input_required_result_sampling'))).toBe('Sampling response: echo: What is the capital of France?');
    expect(text(await client.tool('test_input_required_result_list_roots'))).toBe(
      'Client roots:\nfile:///workspace (workspace)\nfile:///tmp',
    );
    expect(text(await client.tool('test_input_required_result_multiple_inputs'))).toBe(
      'All inputs received: name=name-value, greeting=echo: Generate a greeting, roots=2',
    );
    expect(text(await client.tool('test_input_required_result_tampered_state'))).toBe('Confirmed: action=accept, content={"ok":true}');
  });
});
