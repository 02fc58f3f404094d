/**
 * Golden tests of the LLM converters, one file per API in `golden/`: the declarations of a catalogue full of awkward
 * schemas and names, a model's call read back, and every kind of outcome written as that API's tool result. Besides
 * the pinned output, each API's own rules are checked on what is produced (name patterns, Gemini's schema subset,
 * OpenAI strict mode's closed objects), so a golden file cannot pin something the API would refuse.
 * `UPDATE_GOLDEN=1` rewrites the files (review the diff).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { declareTools, dropStrictNulls, MODEL_APIS, type ModelApi } from './declarations.js';
import { GOLDEN_CALLS, GOLDEN_OUTCOMES, GOLDEN_TOOLS } from './golden.test-util.js';
import { readToolCall, writeToolResult } from './model-calls.js';
import { isSchema, type JsonSchema } from './schema-common.js';

const GEMINI_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
]);
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);

function goldenOf(api: ModelApi): JsonSchema {
  const call = readToolCall(api, GOLDEN_CALLS[api]);
  return {
    declarations: declareTools(api, GOLDEN_TOOLS).tools,
    ...(api.startsWith('openai') ? { strictDeclarations: declareTools(api, GOLDEN_TOOLS, { strict: true }).tools } : {}),
    names: Object.fromEntries(declareTools(api, GOLDEN_TOOLS).names.entries()),
    call,
    results: Object.fromEntries(Object.entries(GOLDEN_OUTCOMES).map(([label, outcome]) => [label, writeToolResult(api, call, outcome)])),
  };
}

function declaredFunctions(api: ModelApi, tools: JsonSchema[]): Array<{ name: string; parameters?: JsonSchema }> {
  if (api === 'gemini') return (tools[0]!.functionDeclarations as Array<{ name: string; parameters?: JsonSchema }>) ?? [];
  if (api === 'openai-chat') return tools.map((t) => t.function as { name: string; parameters: JsonSchema });
  if (api === 'anthropic') return tools.map((t) => ({ name: t.name as string, parameters: t.input_schema as JsonSchema }));
  return tools.map((t) => ({ name: t.name as string, parameters: t.parameters as JsonSchema }));
}

function geminiProblems(schema: unknown, path: string, out: string[]): void {
  if (!isSchema(schema)) return;
  for (const key of Object.keys(schema)) if (!GEMINI_KEYS.has(key)) out.push(`${path}: ${key}`);
  if (schema.type !== undefined && !GEMINI_TYPES.has(schema.type as string)) out.push(`${path}: type ${String(schema.type)}`);
  if (Array.isArray(schema.enum) && schema.enum.some((v) => typeof v !== 'string')) out.push(`${path}: non-string enum`);
  if (isSchema(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) geminiProblems(v, `${path}.${k}`, out);
  geminiProblems(schema.items, `${path}[]`, out);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((v, i) => geminiProblems(v, `${path}|${i}`, out));
}

function strictProblems(schema: unknown, path: string, out: string[]): void {
  if (!isSchema(schema)) return;
  if (isSchema(schema.properties)) {
    if (schema.additionalProperties !== false) out.push(`${path}: open object`);
    const required = new Set(schema.required as string[]);
    for (const [k, v] of Object.entries(schema.properties)) {
      if (!required.has(k)) out.push(`${path}.${k}: not required`);
      strictProblems(v, `${path}.${k}`, out);
    }
  }
  for (const key of ['oneOf', 'allOf', 'default', 'not']) if (key in schema) out.push(`${path}: ${key}`);
  strictProblems(schema.items, `${path}[]`, out);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((v, i) => strictProblems(v, `${path}|${i}`, out));
}

describe.each(MODEL_APIS)('%s', (api) => {
  const file = new URL(`./golden/${api}.json`, import.meta.url);
  const actual = goldenOf(api);

  test('matches its golden file', () => {
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')) as JsonSchema);
  });

  test('declares names the API accepts, unique, mapped back to every host tool', () => {
    const functions = declaredFunctions(api, declareTools(api, GOLDEN_TOOLS).tools);
    const pattern = api === 'gemini' ? /^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$/ : /^[a-zA-Z0-9_-]{1,64}$/;
    for (const fn of functions) expect(fn.name).toMatch(pattern);
    expect(new Set(functions.map((f) => f.name)).size).toBe(GOLDEN_TOOLS.length);
    const names = declareTools(api, GOLDEN_TOOLS).names;
    for (const tool of GOLDEN_TOOLS) expect(names.hostName(names.apiName(tool.name)!)).toBe(tool.name);
  });

  test('declares parameters the API accepts: an object root without combinators', () => {
    for (const fn of declaredFunctions(api, declareTools(api, GOLDEN_TOOLS).tools)) {
      if (fn.parameters === undefined) continue;
      expect(fn.parameters.type).toBe(api === 'gemini' ? 'OBJECT' : 'object');
      for (const key of ['anyOf', 'oneOf', 'allOf', '$schema', '$ref']) expect(fn.parameters).not.toHaveProperty(key);
      if (api === 'gemini') {
        const problems: string[] = [];
        geminiProblems(fn.parameters, fn.name, problems);
        expect(problems).toEqual([]);
      }
    }
  });

  test.runIf(api.startsWith('openai'))('strict declarations are closed and fully required, or not strict', () => {
    const tools = declareTools(api, GOLDEN_TOOLS, { strict: true }).tools;
    const fns = tools.map((t) => (api === 'openai-chat' ? (t.function as JsonSchema) : t));
    expect(fns.filter((fn) => fn.strict === false).map((fn) => fn.name)).toEqual(['fs_write_file']);
    for (const fn of fns.filter((f) => f.strict === true)) {
      const problems: string[] = [];
      strictProblems(fn.parameters, fn.name as string, problems);
      expect(problems).toEqual([]);
    }
  });

  test('reads the call back to the host tool and its arguments', () => {
    const call = readToolCall(api, GOLDEN_CALLS[api]);
    expect(declareTools(api, GOLDEN_TOOLS).names.hostName(call.name)).toBe('grammar.conjugate');
    expect(call.arguments).toEqual({ verb: 'eat', tense: 'past simple' });
  });

  test('marks both error shapes as errors', () => {
    const results = actual.results as Record<string, JsonSchema>;
    const text = (label: string): string => JSON.stringify(results[label]);
    for (const label of ['toolError', 'rpcError', 'localError', 'consentDenied']) {
      if (api === 'anthropic') expect(results[label]!.is_error).toBe(true);
      else if (api === 'gemini') expect((results[label]!.functionResponse as JsonSchema).response).toHaveProperty('error');
      else expect(text(label)).toMatch(/Tool error|Error|did not allow/);
    }
    expect(text('rpcError')).toContain('-32602');
    expect(text('text')).not.toMatch(/error/i);
  });
});

describe('strict-mode nulls', () => {
  test('null for an optional property is dropped again, through $refs and arrays; required nulls stay', () => {
    const schema = GOLDEN_TOOLS.find((t) => t.name === 'nested.tree')!.tool.inputSchema;
    const args = { root: { name: null, children: [{ name: 'a', children: null }] }, kind: null, unknown: null };
    expect(dropStrictNulls(args, schema)).toEqual({ root: { children: [{ name: 'a' }] }, unknown: null });
  });
});
