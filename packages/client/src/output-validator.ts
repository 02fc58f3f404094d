/**
 * Validation of `structuredContent` against the tool's `outputSchema` (the spec: clients SHOULD validate).
 *
 * Tools are remembered from the last `tools/list` pages seen. A result for a tool not seen yet triggers one lazy
 * listing (shared by concurrent calls); after that an unknown tool is simply not validated. Compiled validators are
 * cached by schema object, so the hot path is a map lookup and a function call; tools without an `outputSchema`
 * cost a map lookup only.
 */
import { LocalError } from '@wiremcp/protocol';
import { createSchemaCompiler, type SchemaCompiler } from '@wiremcp/json-schema';
import type { CallToolResult, Tool } from './types.js';

/** Tools known to the client and the validators of their output schemas. */
export class OutputValidator {
  readonly #tools = new Map<string, Tool>();
  #compiler: SchemaCompiler | undefined;
  #listing: Promise<void> | undefined;
  /** True once a complete listing was seen since the last change (so unknown names stay unknown). */
  #complete = false;

  constructor(compiler: SchemaCompiler | undefined) {
    this.#compiler = compiler;
  }

  /** Remembers the tools of one page (`complete` when this is the whole list). */
  remember(tools: readonly Tool[], complete: boolean): void {
    if (complete) this.#tools.clear();
    for (const tool of tools) {
      if (tool && typeof tool.name === 'string') this.#tools.set(tool.name, tool);
    }
    if (complete) this.#complete = true;
  }

  /** Forgets everything (the server's tool list changed, or a new connection). */
  reset(): void {
    this.#tools.clear();
    this.#complete = false;
    this.#listing = undefined;
  }

  /** The last known definition of a tool. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** True when `name` is a known tool without an `outputSchema` (its results need no check). */
  knownWithoutSchema(name: string): boolean {
    const tool = this.#tools.get(name);
    return tool !== undefined && tool.outputSchema === undefined;
  }

  /**
   * Checks a tool result. Resolves with the result, or rejects with `INVALID_RESULT` listing the problems.
   * `listAll` is called at most once (until `reset`) to learn tools the client has not seen.
   */
  check(name: string, result: CallToolResult, listAll: () => Promise<unknown>): CallToolResult | Promise<CallToolResult> {
    // A failed call need not conform to the schema.
    if (result.isError === true) return result;
    const tool = this.#tools.get(name);
    if (tool) return tool.outputSchema === undefined ? result : this.#validate(tool, result);
    if (this.#complete || result.structuredContent === undefined) return result;
    this.#listing ??= listAll().then(
      () => {
        this.#complete = true;
      },
      () => {
        // A listing failure must not fail a call that succeeded: the result goes unvalidated.
        this.#complete = true;
      },
    );
    return this.#listing.then(() => {
      const known = this.#tools.get(name);
      return known?.outputSchema === undefined ? result : this.#validate(known, result);
    });
  }

  #validate(tool: Tool, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
    const schema = tool.outputSchema!;
    if (result.structuredContent === undefined) {
      return Promise.reject(
        new LocalError('INVALID_RESULT', `Tool '${tool.name}' declares an outputSchema but its result has no structuredContent`, {
          details: { tool: tool.name, errors: ['(root): structuredContent is missing'] },
        }),
      );
    }
    const compiler = (this.#compiler ??= createSchemaCompiler());
    const cached = compiler.cached(schema);
    if (cached) return this.#apply(tool, cached(result.structuredContent), result);
    return compiler.compile(schema).then(
      (validator) => this.#apply(tool, validator(result.structuredContent), result),
      (error: unknown) => {
        throw new LocalError('INVALID_RESULT', `The outputSchema of tool '${tool.name}' cannot be used: ${(error as Error).message}`, {
          cause: error,
          details: { tool: tool.name },
        });
      },
    );
  }

  #apply(tool: Tool, outcome: { valid: boolean; errors: readonly string[] }, result: CallToolResult): CallToolResult {
    if (outcome.valid) return result;
    throw new LocalError(
      'INVALID_RESULT',
      `The structuredContent of tool '${tool.name}' does not match its outputSchema: ${outcome.errors.join('; ')}`,
      { details: { tool: tool.name, errors: outcome.errors, structuredContent: result.structuredContent } },
    );
  }
}
