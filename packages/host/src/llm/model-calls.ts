/**
 * The model's side of a tool call, per API: reading the call the model made (its id, the declared name, the
 * arguments) and writing the result back in the shape the API expects for the next turn.
 */
import type { ModelApi } from './declarations.js';
import { isSchema, type JsonSchema } from './schema-common.js';
import { outcomeText, renderOutcome, type ToolOutcome } from './tool-outcome.js';

/** A call as the model made it. */
export interface ModelToolCall {
  /** The call's id (`tool_use.id`, `tool_calls[].id`, `call_id`, Gemini's optional `id`). */
  readonly id: string | undefined;
  /** The declared (API) name the model called. */
  readonly name: string;
  /** The arguments, parsed; `undefined` with `argumentsError` set when they could not be read. */
  readonly arguments: Record<string, unknown> | undefined;
  readonly argumentsError?: string;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
  return value;
}

function parsedArguments(raw: unknown): Pick<ModelToolCall, 'arguments' | 'argumentsError'> {
  if (raw === undefined || raw === null || raw === '') return { arguments: {} };
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { arguments: undefined, argumentsError: 'the arguments are not valid JSON' };
    }
  }
  return isSchema(value) ? { arguments: value } : { arguments: undefined, argumentsError: 'the arguments must be a JSON object' };
}

/**
 * Reads a model's tool call: an Anthropic `tool_use` block, an OpenAI Chat Completions `tool_calls[]` entry, an OpenAI
 * Responses `function_call` item, or a Gemini `functionCall` part (or its inner object). Throws a `TypeError` for
 * something that is none of these.
 */
export function readToolCall(api: ModelApi, call: unknown): ModelToolCall {
  if (!isSchema(call)) throw new TypeError('a tool call must be an object');
  switch (api) {
    case 'anthropic':
      return { id: text(call.id, 'tool_use.id'), name: text(call.name, 'tool_use.name'), ...parsedArguments(call.input) };
    case 'openai-chat': {
      const fn = call.function;
      if (!isSchema(fn)) throw new TypeError('a Chat Completions tool call needs "function"');
      return { id: text(call.id, 'tool_calls[].id'), name: text(fn.name, 'function.name'), ...parsedArguments(fn.arguments) };
    }
    case 'openai-responses':
      return {
        id: text(call.call_id, 'function_call.call_id'),
        name: text(call.name, 'function_call.name'),
        ...parsedArguments(call.arguments),
      };
    case 'gemini': {
      const fn = isSchema(call.functionCall) ? call.functionCall : call;
      return {
        id: typeof fn.id === 'string' ? fn.id : undefined,
        name: text(fn.name, 'functionCall.name'),
        ...parsedArguments(fn.args),
      };
    }
  }
}

/** The result of `call` in the API's shape, for the model's next turn. */
export function writeToolResult(api: ModelApi, call: Pick<ModelToolCall, 'id' | 'name'>, outcome: ToolOutcome): JsonSchema {
  const rendered = renderOutcome(outcome);
  const plain = outcomeText(rendered);
  const flagged = rendered.isError && 'result' in outcome ? `Tool error: ${plain}` : plain;
  switch (api) {
    case 'anthropic': {
      const content = rendered.parts.map((part) =>
        part.type === 'text'
          ? { type: 'text', text: part.text }
          : { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } },
      );
      return {
        type: 'tool_result',
        tool_use_id: call.id,
        content: content.length > 0 ? content : [{ type: 'text', text: '(no content)' }],
        ...(rendered.isError ? { is_error: true } : {}),
      };
    }
    case 'openai-chat':
      return { role: 'tool', tool_call_id: call.id, content: flagged };
    case 'openai-responses': {
      const images = rendered.parts.some((part) => part.type === 'image');
      const output = images
        ? rendered.parts.map((part) =>
            part.type === 'text'
              ? { type: 'input_text', text: part.text }
              : { type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}` },
          )
        : flagged;
      if (images && rendered.isError) (output as JsonSchema[]).unshift({ type: 'input_text', text: 'Tool error:' });
      return { type: 'function_call_output', call_id: call.id, output };
    }
    case 'gemini': {
      // Gemini wants an object: the structured result when there is one (with any text that says more than it).
      const structured = rendered.structured;
      const extra = structured !== undefined && plain !== '' && plain !== JSON.stringify(structured) ? { content: plain } : {};
      const response = rendered.isError ? { error: plain } : { output: structured ?? plain, ...extra };
      return { functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, response } };
    }
  }
}
