import { ErrorCode, invalidParams, LocalError, RpcError, truncateInput } from '@wiremcp/protocol';
import { SchemaError, type SchemaCompiler, type SchemaValidator } from '@wiremcp/json-schema';
import { InputRequiredError, type HandlerContext } from './handler-context.js';
import type { CallToolResult, ToolDefinition } from './types.js';

/** Runs a tool. Return a result; throw to answer `isError: true` with the error's message. */
export type ToolHandler<Args = Record<string, unknown>> = (args: Args, context: HandlerContext) => CallToolResult | Promise<CallToolResult>;

/** Handle of a registered tool: change it, disable it or remove it at runtime (clients are notified). */
export interface RegisteredTool {
  readonly name: string;
  readonly enabled: boolean;
  /** Replaces parts of the definition and/or the handler. Renaming is allowed. */
  update<Args = Record<string, unknown>>(changes: Partial<ToolDefinition> & { handler?: ToolHandler<Args> }): void;
  enable(): void;
  disable(): void;
  remove(): void;
}

interface Entry {
  definition: ToolDefinition;
  /** Stored with its argument type erased: arguments reach it only after they passed `inputSchema`. */
  handler: ToolHandler<never>;
  enabled: boolean;
  input: SchemaValidator | undefined;
  output: SchemaValidator | undefined;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function text(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function checkDefinition(definition: ToolDefinition): void {
  if (typeof definition.name !== 'string' || !NAME.test(definition.name)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `Invalid tool name ${JSON.stringify(definition.name)}: use 1-128 characters of A-Z a-z 0-9 _ . -`,
    );
  }
  const input = definition.inputSchema as { type?: unknown } | undefined;
  if (typeof input !== 'object' || input === null || input.type !== 'object') {
    throw new LocalError('INVALID_ARGUMENT', `Tool '${definition.name}': inputSchema must be a JSON Schema with "type": "object"`);
  }
}

/** The tools of a server: registration, listing, and calls with input and output validation. */
export class ToolRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #compiler: SchemaCompiler;
  readonly #changed: () => void;
  #listCache: ToolDefinition[] | undefined;

  constructor(compiler: SchemaCompiler, changed: () => void) {
    this.#compiler = compiler;
    this.#changed = changed;
  }

  /** Number of registered tools (enabled or not). */
  get size(): number {
    return this.#entries.size;
  }

  #touch(): void {
    this.#listCache = undefined;
    this.#changed();
  }

  /** Adds a tool. Throws `INVALID_ARGUMENT` for a bad definition or a duplicate name. */
  register<Args = Record<string, unknown>>(definition: ToolDefinition, handler: ToolHandler<Args>): RegisteredTool {
    checkDefinition(definition);
    if (this.#entries.has(definition.name)) throw new LocalError('INVALID_ARGUMENT', `Tool '${definition.name}' is already registered`);
    const entry: Entry = { definition, handler: handler as ToolHandler<never>, enabled: true, input: undefined, output: undefined };
    this.#entries.set(definition.name, entry);
    this.#touch();
    return {
      get name() {
        return entry.definition.name;
      },
      get enabled() {
        return entry.enabled;
      },
      update: (changes) => {
        const { handler: nextHandler, ...fields } = changes;
        const next = { ...entry.definition, ...fields };
        checkDefinition(next);
        if (next.name !== entry.definition.name) {
          if (this.#entries.has(next.name)) throw new LocalError('INVALID_ARGUMENT', `Tool '${next.name}' is already registered`);
          this.#entries.delete(entry.definition.name);
          this.#entries.set(next.name, entry);
        }
        if (fields.inputSchema) entry.input = undefined;
        if ('outputSchema' in fields) entry.output = undefined;
        entry.definition = next;
        if (nextHandler) entry.handler = nextHandler as ToolHandler<never>;
        this.#touch();
      },
      enable: () => {
        if (!entry.enabled) {
          entry.enabled = true;
          this.#touch();
        }
      },
      disable: () => {
        if (entry.enabled) {
          entry.enabled = false;
          this.#touch();
        }
      },
      remove: () => {
        if (this.#entries.get(entry.definition.name) === entry) {
          this.#entries.delete(entry.definition.name);
          this.#touch();
        }
      },
    };
  }

  /** The definition of the enabled tool `name`, or `undefined`. */
  get(name: string): ToolDefinition | undefined {
    const entry = this.#entries.get(name);
    return entry?.enabled ? entry.definition : undefined;
  }

  /** The enabled tools' definitions in registration order (the same array until something changes). */
  list(): ToolDefinition[] {
    return (this.#listCache ??= [...this.#entries.values()].filter((e) => e.enabled).map((e) => e.definition));
  }

  /** Compiles every schema now (called after the handshake so the first call does not pay for it). */
  async warmUp(): Promise<void> {
    for (const entry of this.#entries.values()) {
      try {
        entry.input ??= await this.#compiler.compile(entry.definition.inputSchema);
        if (entry.definition.outputSchema) entry.output ??= await this.#compiler.compile(entry.definition.outputSchema);
      } catch {
        // Reported to the caller on the tool's first call instead.
      }
    }
  }

  /**
   * Runs `tools/call`. Protocol errors (unknown tool, malformed params) throw `-32602`; everything that goes
   * wrong inside the tool, including arguments that fail `inputSchema`, is an `isError: true` result with a
   * readable text. Synchronous when the handler is and the schemas are compiled.
   */
  call(params: Record<string, unknown> | undefined, context: HandlerContext): CallToolResult | Promise<CallToolResult> {
    const name = params?.name;
    if (typeof name !== 'string') throw invalidParams('Invalid params: "name" must be a string');
    const entry = this.#entries.get(name);
    if (!entry || !entry.enabled) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: '${truncateInput(name)}'`);
    const args = params?.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw invalidParams('Invalid params: "arguments" must be an object');
    }
    if (entry.input === undefined || (entry.definition.outputSchema !== undefined && entry.output === undefined)) {
      return this.#compileThenCall(entry, args as Record<string, unknown>, context);
    }
    return this.#run(entry, args as Record<string, unknown>, context);
  }

  async #compileThenCall(entry: Entry, args: Record<string, unknown>, context: HandlerContext): Promise<CallToolResult> {
    try {
      entry.input ??= await this.#compiler.compile(entry.definition.inputSchema);
      if (entry.definition.outputSchema) entry.output ??= await this.#compiler.compile(entry.definition.outputSchema);
    } catch (error) {
      const reason = error instanceof SchemaError ? error.message : String(error);
      return text(`Tool '${entry.definition.name}' has an unusable schema: ${reason}`);
    }
    return this.#run(entry, args, context);
  }

  #run(entry: Entry, args: Record<string, unknown>, context: HandlerContext): CallToolResult | Promise<CallToolResult> {
    const checked = entry.input!(args);
    if (!checked.valid) {
      return text(`Invalid arguments for tool '${entry.definition.name}': ${checked.errors.join('; ')}`);
    }
    let outcome: CallToolResult | Promise<CallToolResult>;
    try {
      outcome = entry.handler(args as never, context);
    } catch (error) {
      return this.#failure(entry, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (result) => this.#finish(entry, result),
        (error: unknown) => this.#failure(entry, error),
      );
    }
    return this.#finish(entry, outcome);
  }

  #failure(entry: Entry, error: unknown): CallToolResult {
    // Input requests and explicit protocol errors are the author's way to answer at the protocol level.
    if (error instanceof InputRequiredError || error instanceof RpcError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return text(message.length > 0 ? message : `Tool '${entry.definition.name}' failed`);
  }

  #finish(entry: Entry, result: CallToolResult): CallToolResult {
    if (typeof result !== 'object' || result === null) {
      return text(`Tool '${entry.definition.name}' returned no result object`);
    }
    const output = entry.output;
    if (output && !result.isError) {
      if (result.structuredContent === undefined) {
        return text(`Tool '${entry.definition.name}' declares an outputSchema but returned no structuredContent`);
      }
      const checked = output(result.structuredContent);
      if (!checked.valid) {
        return text(
          `Tool '${entry.definition.name}' returned structuredContent that does not match its outputSchema: ${checked.errors.join('; ')}`,
        );
      }
    }
    if (result.content === undefined) {
      // Clients that predate structured output read the JSON from a text block (the spec's SHOULD).
      const content =
        result.structuredContent === undefined ? [] : [{ type: 'text' as const, text: JSON.stringify(result.structuredContent) }];
      return { ...result, content };
    }
    return result;
  }
}
