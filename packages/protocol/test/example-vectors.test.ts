// The 129 official 2026-07-28 example messages against the generated 2026-07-28 validators: each must be valid
// for the definition its directory names, and a broken copy of each (rule: scripts/lib/break-example.mjs) invalid.
import { describe, expect, it } from 'vitest';
import { breakExample } from '../scripts/lib/break-example.mjs';
import { loadExamples, undeclaredKeys } from '../scripts/lib/examples.mjs';
import { formatValidationIssues } from '../src/validators/index.js';
import { isDefinitionName, validate, validateMessage } from '../src/validators/2026-07-28.js';
import { EXAMPLES_DIR, loadDefinitions } from './support/spec-files.js';

const defs = loadDefinitions('2026-07-28');
const examples = loadExamples(EXAMPLES_DIR);

describe('2026-07-28 example vectors', () => {
  it('are the 129 upstream files in 88 definition directories', () => {
    expect(examples).toHaveLength(129);
    expect(new Set(examples.map((example) => example.type)).size).toBe(88);
  });

  describe.each(examples.map((example) => [`${example.type}/${example.file}`, example] as const))('%s', (_name, example) => {
    it('names a 2026-07-28 definition', () => {
      expect(isDefinitionName(example.type)).toBe(true);
    });

    it('is valid', () => {
      if (!isDefinitionName(example.type)) throw new Error(`no definition ${example.type}`);
      const result = validate(example.type, example.value);
      expect(formatValidationIssues(result.errors)).toBe('');
      expect(result.valid).toBe(true);
    });

    it('is invalid once broken', () => {
      if (!isDefinitionName(example.type)) throw new Error(`no definition ${example.type}`);
      const broken = breakExample(defs, example.type, example.value);
      const result = validate(example.type, broken.value);
      expect(result.valid, broken.rule).toBe(false);
      expect(result.errors.length).toBeGreaterThan(0);
      expect(result.errors.every((issue) => typeof issue.path === 'string' && issue.message.length > 0)).toBe(true);
    });
  });

  it('breaks by removing the first required property, or by a value of a type the definition refuses', () => {
    const rules = examples.map((example) => breakExample(defs, example.type, example.value).rule);
    expect(rules.filter((rule) => rule.startsWith('without required property')).length).toBeGreaterThan(100);
    const byType = new Map(examples.map((example) => [example.type, breakExample(defs, example.type, example.value)]));
    expect(byType.get('CallToolResult')?.rule).toBe("without required property 'content'");
    expect(byType.get('ServerCapabilities')).toEqual({ value: 'not a valid value', rule: 'replaced by a string' });
    expect(validate('ServerCapabilities', 'not a valid value').errors[0]).toMatchObject({ path: '', keyword: 'type' });
  });

  it('only ListRootsRequest carries a key its definition does not declare (upstream quirk: `id` on an input request)', () => {
    const flagged = examples
      .map((example) => [`${example.type}/${example.file}`, undeclaredKeys({ defs }, example.type, example.value)] as const)
      .filter(([, keys]) => keys.length > 0);
    expect(flagged).toEqual([['ListRootsRequest/list-roots-request.json', ['id']]]);
  });

  it('the full JSON-RPC messages among them pass validateMessage with their own definition', () => {
    const envelopes = examples.filter((example) => {
      const value = example.value as Record<string, unknown>;
      return value['jsonrpc'] === '2.0';
    });
    expect(envelopes.length).toBeGreaterThan(30);
    for (const example of envelopes) {
      if (example.file === QUIRK) continue;
      const value = example.value as Record<string, unknown>;
      const method = typeof value['method'] === 'string' ? undefined : methodOfResponse(example.type);
      const result = validateMessage(example.value, method === undefined ? {} : { method });
      expect(formatValidationIssues(result.errors), `${example.type}/${example.file}`).toBe('');
      if (result.kind === 'request' || result.kind === 'notification') {
        expect(result.knownMethod, example.type).toBe(true);
        expect(result.definitions).toContain(example.type);
      }
    }
  });
});

// This upstream example omits `ttlMs`/`cacheScope`, which ReadResourceResult requires of a complete result. It
// passes its own definition only through the `InputRequiredResult` branch of its anyOf (which requires nothing but
// `resultType`); validateMessage picks the branch by `resultType`, so it reports the omission.
const QUIRK = 'read-resource-result-response.json';

describe('validateMessage discriminates results by resultType', () => {
  it('reports the missing cache fields of the upstream read-resource-result-response example', () => {
    const example = examples.find((candidate) => candidate.file === QUIRK);
    if (example === undefined || !isDefinitionName(example.type)) throw new Error('example missing');
    expect(validate(example.type, example.value).valid).toBe(true);
    const result = validateMessage(example.value, { method: 'resources/read' });
    expect(result.definitions).toEqual(['JSONRPCResultResponse', 'ReadResourceResult']);
    expect(result.errors.map((issue) => `${issue.path}: ${issue.message}`)).toEqual(["/result: must have required property 'cacheScope'"]);
  });
});

// `ListToolsResultResponse` answers `tools/list`: the response examples are named after their result.
function methodOfResponse(type: string): string | undefined {
  const byResult: Record<string, string> = {
    CallToolResultResponse: 'tools/call',
    CompleteResultResponse: 'completion/complete',
    DiscoverResultResponse: 'server/discover',
    GetPromptResultResponse: 'prompts/get',
    ListPromptsResultResponse: 'prompts/list',
    ListResourceTemplatesResultResponse: 'resources/templates/list',
    ListResourcesResultResponse: 'resources/list',
    ListToolsResultResponse: 'tools/list',
    ReadResourceResultResponse: 'resources/read',
    SubscriptionsListenResultResponse: 'subscriptions/listen',
  };
  return byResult[type];
}
