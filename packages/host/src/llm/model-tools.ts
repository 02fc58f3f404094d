/**
 * A host's catalogue as one LLM API's tools: the declarations to send, and `call()` to run what the model asked for
 * through the host (consent hook included) and get back the result message in that API's shape — never a thrown
 * error for what went wrong with the tool, so the conversation can go on.
 */
import type { CallOptions, CallToolResult } from '@wiremcp/client';
import { declareTools, dropStrictNulls, type DeclarableTool, type DeclarationOptions, type ModelApi } from './declarations.js';
import { readToolCall, writeToolResult, type ModelToolCall } from './model-calls.js';
import type { JsonSchema } from './schema-common.js';
import type { ToolNameMap } from './tool-names.js';
import type { ToolOutcome } from './tool-outcome.js';

/** What {@link modelTools} needs of a host (an `McpHost` fits). */
export interface ToolRouter {
  readonly catalogue: { tools(): readonly DeclarableTool[] };
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
}

/** Options of {@link modelTools}. */
export interface ModelToolsOptions extends DeclarationOptions {
  /** Which catalogue tools to declare (default: all). */
  readonly filter?: (tool: DeclarableTool) => boolean;
}

/** A resolved call: the host's tool name and the arguments to pass. */
export interface ResolvedCall {
  readonly call: ModelToolCall;
  /** The host's name, or `undefined` when the model called a name that was not declared. */
  readonly hostName: string | undefined;
}

/** See the module comment. Declarations are a snapshot: {@link refresh} after the catalogue changes. */
export class ModelTools {
  readonly api: ModelApi;
  readonly #router: ToolRouter;
  readonly #options: ModelToolsOptions;
  #tools: JsonSchema[] = [];
  #names!: ToolNameMap;
  #strict: ReadonlyMap<string, JsonSchema> = new Map();

  constructor(router: ToolRouter, api: ModelApi, options: ModelToolsOptions = {}) {
    this.api = api;
    this.#router = router;
    this.#options = options;
    this.refresh();
  }

  /** The declarations: the request's `tools` (Gemini: `[{ functionDeclarations }]`, or `[]` without tools). */
  get tools(): JsonSchema[] {
    return this.#tools;
  }

  /** Declared name ↔ host name. */
  get names(): ToolNameMap {
    return this.#names;
  }

  /** Rebuilds the declarations from the catalogue as it is now. */
  refresh(): void {
    const filter = this.#options.filter;
    const tools = this.#router.catalogue.tools().filter((tool) => filter === undefined || filter(tool));
    const declared = declareTools(this.api, tools, this.#options);
    this.#tools = declared.tools;
    this.#names = declared.names;
    this.#strict = declared.strictTools;
  }

  /** Reads a model's call (see `readToolCall`) and finds the host tool it names. */
  resolve(call: unknown): ResolvedCall {
    const read = readToolCall(this.api, call);
    return { call: read, hostName: this.#names.hostName(read.name) };
  }

  /**
   * Runs a model's call through the host and returns the API's result message. Unknown names, unreadable arguments,
   * refused consent, `isError` results and JSON-RPC errors all come back as error results the model can read; only an
   * abort of `options.signal` rejects.
   */
  async call(modelCall: unknown, options: CallOptions = {}): Promise<JsonSchema> {
    const { call, hostName } = this.resolve(modelCall);
    const outcome = await this.#run(call, hostName, options);
    return writeToolResult(this.api, call, outcome);
  }

  async #run(call: ModelToolCall, hostName: string | undefined, options: CallOptions): Promise<ToolOutcome> {
    if (hostName === undefined) return { error: new Error(`no tool named ${JSON.stringify(call.name.slice(0, 100))} was declared`) };
    if (call.arguments === undefined) return { error: new Error(call.argumentsError ?? 'the arguments could not be read') };
    const strictSchema = this.#strict.get(hostName);
    const args = strictSchema === undefined ? call.arguments : (dropStrictNulls(call.arguments, strictSchema) as Record<string, unknown>);
    try {
      return { result: await this.#router.callTool(hostName, args, options) };
    } catch (error) {
      // The caller gave up: that is theirs to handle, not a result for the model.
      if (options.signal?.aborted) throw error;
      return { error };
    }
  }
}

/** The host's tools for `api` (see {@link ModelTools}). */
export function modelTools(router: ToolRouter, api: ModelApi, options: ModelToolsOptions = {}): ModelTools {
  return new ModelTools(router, api, options);
}
