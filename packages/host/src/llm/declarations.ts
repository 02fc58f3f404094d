/**
 * Tool declarations for the four LLM APIs, from catalogue tools, and the model's tool calls back to host calls.
 *
 * | API | declaration | a call | a result |
 * |---|---|---|---|
 * | Anthropic Messages | `{ name, description, input_schema }` | `tool_use` block | `tool_result` block (`is_error`) |
 * | OpenAI Chat Completions | `{ type: 'function', function: { name, description, parameters, strict } }` | `tool_calls[]` | `tool` message |
 * | OpenAI Responses | `{ type: 'function', name, description, parameters, strict }` | `function_call` item | `function_call_output` item |
 * | Gemini | `{ functionDeclarations: [{ name, description, parameters }] }` | `functionCall` part | `functionResponse` part |
 */
import type { Tool } from '@wiremcp/client';
import { toGeminiSchema } from './gemini-schema.js';
import { toStrictSchema } from './openai-strict.js';
import { definitionsOf, isSchema, objectRoot, strings, type JsonSchema } from './schema-common.js';
import { ALPHANUMERIC_64, assignNames, GEMINI_NAMES, type NameRule, type ToolNameMap } from './tool-names.js';

/** The LLM APIs a catalogue converts to. */
export type ModelApi = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

/** Every {@link ModelApi}. */
export const MODEL_APIS: readonly ModelApi[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'];

/** What a declaration is made from: a catalogue tool (`HostTool` fits). */
export interface DeclarableTool {
  /** The host's (namespaced) name. */
  readonly name: string;
  readonly tool: Tool;
}

/** Options of the declarations. */
export interface DeclarationOptions {
  /** OpenAI: declare tools `strict: true` where the schema allows it (others stay non-strict). Default false. */
  readonly strict?: boolean;
}

/** Declarations, and how to read the model's calls back. */
export interface Declarations<T> {
  /** What to put in the request's tools (Gemini: one `{ functionDeclarations }` entry). */
  readonly tools: T[];
  readonly names: ToolNameMap;
  /** Host name → the schema its arguments were declared with before conversion (to undo strict-mode nulls). */
  readonly strictTools: ReadonlyMap<string, JsonSchema>;
}

const RULES: Record<ModelApi, NameRule> = {
  anthropic: ALPHANUMERIC_64,
  'openai-chat': ALPHANUMERIC_64,
  'openai-responses': ALPHANUMERIC_64,
  gemini: GEMINI_NAMES,
};

function descriptionOf(entry: DeclarableTool): string {
  return entry.tool.description ?? entry.tool.title ?? entry.tool.annotations?.title ?? entry.name;
}

/** Builds the declarations of `tools` for `api`. */
export function declareTools(api: ModelApi, tools: readonly DeclarableTool[], options: DeclarationOptions = {}): Declarations<JsonSchema> {
  const names = assignNames(
    tools.map((t) => t.name),
    RULES[api],
  );
  const strictTools = new Map<string, JsonSchema>();
  const out = tools.map((entry): JsonSchema => {
    const name = names.apiName(entry.name)!;
    const description = descriptionOf(entry);
    const parameters = objectRoot(entry.tool.inputSchema);
    switch (api) {
      case 'anthropic':
        return { name, description, input_schema: parameters };
      case 'gemini': {
        const schema = toGeminiSchema(parameters);
        return { name, description, ...(schema === undefined ? {} : { parameters: schema }) };
      }
      default: {
        const strict = options.strict ? toStrictSchema(parameters) : undefined;
        if (strict !== undefined) strictTools.set(entry.name, parameters);
        const fn = { name, description, parameters: strict ?? parameters, ...(options.strict ? { strict: strict !== undefined } : {}) };
        return api === 'openai-chat' ? { type: 'function', function: fn } : { type: 'function', ...fn };
      }
    }
  });
  return { tools: api === 'gemini' ? (out.length ? [{ functionDeclarations: out }] : []) : out, names, strictTools };
}

/**
 * Strict mode made optional properties nullable; a model sends `null` for "not given". The tool's own schema does not
 * accept `null` there, so those are removed again (recursively through declared properties, array items and local
 * `$ref`s of `schema`).
 */
export function dropStrictNulls(value: unknown, schema: unknown): unknown {
  const defs = isSchema(schema) ? definitionsOf(schema) : {};
  const walk = (item: unknown, node: unknown, depth: number): unknown => {
    if (!isSchema(node) || depth > 64) return item;
    if (typeof node.$ref === 'string' && defs[node.$ref]) return walk(item, defs[node.$ref], depth + 1);
    if (Array.isArray(item)) return item.map((element) => walk(element, node.items, depth + 1));
    if (!isSchema(item) || !isSchema(node.properties)) return item;
    const properties = node.properties;
    const required = new Set(strings(node.required));
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(item)) {
      if (child === null && !required.has(key) && Object.hasOwn(properties, key)) continue;
      out[key] = walk(child, properties[key], depth + 1);
    }
    return out;
  };
  return walk(value, schema, 0);
}
