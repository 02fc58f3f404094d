/**
 * What the host does between a caller and its servers, against the reference everything and grammar servers: consent
 * before each tool call (with the tool's hints), routing by namespaced name, allow/deny lists, progress and
 * cancellation passed through, sampling/elicitation/roots answered by one handler tagged with the asking server, the
 * catalogue refreshed on list changes, and the model-facing tools routed through it all.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { isLocalError } from '@wiremcp/protocol';
import { isHostError } from './host-error.js';
import { McpHost } from './mcp-host.js';
import type { ConsentHook, HostInputContext, ToolCallRequest } from './types.js';
import { BINS, configOf, next, node } from './host.test-util.js';

let host: McpHost;
const asked: Array<{ kind: string; server: string }> = [];
const consent = vi.fn<ConsentHook>(() => true);

beforeAll(async () => {
  const config = await configOf({
    everything: node(BINS.everything),
    grammar: { ...node(BINS.grammar), tools: { deny: ['lookup_*'] } },
  });
  const tag = (kind: string, context: HostInputContext): void => void asked.push({ kind, server: context.server });
  host = new McpHost(config, {
    consent: (request) => consent(request),
    roots: [{ uri: 'file:///workspace', name: 'workspace' }],
    elicitation: { url: true },
    handlers: {
      sampling: (params, context) => {
        tag('sampling', context);
        return { role: 'assistant', content: { type: 'text', text: `hi from ${context.server}` }, model: 'test-model' };
      },
      elicitation: (params, context) => {
        tag(`elicitation:${params.mode ?? 'form'}`, context);
        return params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: { name: 'Ada', check: true } };
      },
    },
  });
  await host.start();
});
afterAll(() => host.close());

const text = (result: { content: Array<{ type: string; text?: string }> }): string =>
  result.content.map((item) => item.text ?? `[${item.type}]`).join('\n');

describe('consent', () => {
  test('asked before every call, with the hints; a refusal never reaches the server', async () => {
    consent.mockImplementation((request: ToolCallRequest) =>
      request.hints.readOnly ? true : { allow: false, reason: 'read-only session' },
    );
    const simple = await host.callTool('everything.test_simple_text', {});
    expect(text(simple)).toMatch(/simple text/i);
    const request = consent.mock.calls.at(-1)![0];
    expect(request).toMatchObject({ server: 'everything', tool: 'test_simple_text', name: 'everything.test_simple_text', arguments: {} });
    const before = host.catalogue.tools().map((t) => t.name);
    const error = await host.callTool('everything.test_trigger_tool_change', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONSENT_DENIED', message: expect.stringContaining('read-only session') });
    const refused = consent.mock.calls.at(-1)![0];
    expect(refused.hints).toEqual({ readOnly: false, destructive: false, idempotent: false, openWorld: false });
    expect(refused.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // Refused, so the tool list did not change.
    expect(host.catalogue.tools().map((t) => t.name)).toEqual(before);
  });

  test('an allowed call may have its arguments replaced', async () => {
    consent.mockImplementation(() => ({ allow: true, arguments: { verb: 'eat', tense: 'past simple', person: '3rd singular' } }));
    const result = await host.callTool('grammar.conjugate', { verb: 'walk', tense: 'present simple', person: '1st singular' });
    expect(text(result)).toContain('ate');
    consent.mockImplementation(() => true);
  });
});

describe('routing and the catalogue', () => {
  test('deny lists hide tools from the catalogue and from calls', async () => {
    const grammar = host.catalogue
      .tools()
      .filter((t) => t.server === 'grammar')
      .map((t) => t.name);
    expect(grammar).toEqual(['grammar.check_subject_verb_agreement', 'grammar.conjugate']);
    await expect(host.callTool('grammar.lookup_spanish', { english_form: 'ate' })).rejects.toSatisfy((e) => isHostError(e, 'UNKNOWN_NAME'));
  });

  test('prompts by namespaced name, resources by URI (the server is found), templates too', async () => {
    const prompts = host.catalogue.prompts().map((p) => p.name);
    expect(prompts).toContain('everything.test_simple_prompt');
    const prompt = await host.getPrompt('everything.test_simple_prompt');
    expect(prompt.messages.length).toBeGreaterThan(0);
    const resource = host.catalogue.resources().find((r) => r.server === 'grammar')!;
    const read = await host.readResource(resource.resource.uri);
    expect(read.contents[0]!.uri).toBe(resource.resource.uri);
    const template = host.catalogue.resourceTemplates().find((t) => t.server === 'everything')!;
    expect(template).toBeDefined();
    await expect(host.readResource('nowhere://x')).rejects.toSatisfy((e) => isHostError(e, 'UNKNOWN_NAME'));
  });

  test('a list change refreshes the catalogue', async () => {
    const changed = next(host, 'catalogue', (e) => e.server === 'everything' && e.kinds.includes('tools'));
    const had = host.catalogue.tool('everything.test_dynamic_tool') !== undefined;
    await host.callTool('everything.test_trigger_tool_change', {});
    await changed;
    await vi.waitFor(() => expect(host.catalogue.tool('everything.test_dynamic_tool') !== undefined).toBe(!had));
  });
});

describe('progress, cancellation, and the other direction', () => {
  test('progress passes through; aborting cancels the call on the server', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const call = host.callTool(
      'everything.test_long_running_operation',
      { durationMs: 60_000, steps: 600 },
      {
        signal: controller.signal,
        onprogress: ({ progress: value }) => {
          progress.push(value);
          if (progress.length === 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toSatisfy((e) => isLocalError(e, 'REQUEST_CANCELLED'));
    expect(progress).toEqual([1, 2]);
    // The server is still there for the next call.
    expect(host.status()[0]!.state).toBe('ready');
  });

  test('sampling, elicitation (form and URL) and roots reach one handler each, tagged with the server', async () => {
    asked.length = 0;
    expect(text(await host.callTool('everything.test_sampling', { prompt: 'Hi' }))).toContain('hi from everything');
    expect(text(await host.callTool('everything.test_elicitation', { message: 'Who?' }))).toMatch(/accept/);
    expect(text(await host.callTool('everything.test_elicitation_url', {}))).toMatch(/decline/);
    expect(asked).toEqual([
      { kind: 'sampling', server: 'everything' },
      { kind: 'elicitation:form', server: 'everything' },
      { kind: 'elicitation:url', server: 'everything' },
    ]);
    const roots = await host.callTool('everything.test_list_roots', {});
    expect(roots.structuredContent).toEqual({ roots: [{ uri: 'file:///workspace', name: 'workspace' }] });
    await host.setRoots([{ uri: 'file:///elsewhere', name: 'elsewhere' }]);
    const after = await host.callTool('everything.test_list_roots', {});
    expect(after.structuredContent).toEqual({ roots: [{ uri: 'file:///elsewhere', name: 'elsewhere' }] });
  });
});

describe('model tools through the host', () => {
  test('a model call is routed, consent applies, errors come back as results', async () => {
    const tools = host.modelTools('anthropic');
    expect(tools.tools.map((t) => t.name)).toContain('grammar_conjugate');
    const ok = await tools.call({
      type: 'tool_use',
      id: 't1',
      name: 'grammar_conjugate',
      input: { verb: 'eat', tense: 'past simple', person: '3rd singular' },
    });
    expect(ok).toMatchObject({ type: 'tool_result', tool_use_id: 't1' });
    expect(JSON.stringify(ok)).toContain('ate');
    expect(ok).not.toHaveProperty('is_error');
    const unknown = await tools.call({ type: 'tool_use', id: 't2', name: 'nope', input: {} });
    expect(unknown).toMatchObject({ is_error: true, content: [{ type: 'text', text: 'Error: no tool named "nope" was declared' }] });
    consent.mockImplementationOnce(() => false);
    const refused = await tools.call({ type: 'tool_use', id: 't3', name: 'everything_test_simple_text', input: {} });
    expect(refused).toMatchObject({ is_error: true });
    expect(JSON.stringify(refused)).toContain('did not allow');
    const gemini = host.modelTools('gemini');
    const failed = await gemini.call({ functionCall: { name: 'everything_test_error_handling', args: {} } });
    expect(failed).toMatchObject({ functionResponse: { name: 'everything_test_error_handling', response: { error: expect.any(String) } } });
  });
});
