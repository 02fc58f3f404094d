/**
 * `@wiremcp/host/llm`: the catalogue as tool declarations for Anthropic Messages, OpenAI Chat Completions and
 * Responses, and Gemini — JSON Schema restrictions handled, names made valid and mapped back — and the model's calls
 * back into host calls and their results into each API's tool-result shape. Web-standard: no Node APIs.
 */
export {
  declareTools,
  dropStrictNulls,
  MODEL_APIS,
  type DeclarableTool,
  type DeclarationOptions,
  type Declarations,
  type ModelApi,
} from './declarations.js';
export { readToolCall, writeToolResult, type ModelToolCall } from './model-calls.js';
export { modelTools, ModelTools, type ModelToolsOptions, type ResolvedCall, type ToolRouter } from './model-tools.js';
export {
  errorText,
  outcomeText,
  renderOutcome,
  type OutcomeImage,
  type OutcomePart,
  type RenderedOutcome,
  type ToolOutcome,
} from './tool-outcome.js';
export { ALPHANUMERIC_64, assignNames, GEMINI_NAMES, sanitizeName, ToolNameMap, type NameRule } from './tool-names.js';
export { toGeminiSchema } from './gemini-schema.js';
export { toStrictSchema } from './openai-strict.js';
export { inlineRefs, objectRoot, type JsonSchema } from './schema-common.js';
