import { ErrorCode, invalidParams, LocalError, RpcError, truncateInput } from '@wiremcp/protocol';
import {
  SchemaError,
  type JsonSchemaConverter,
  type ParseOutcome,
  type SchemaCompiler,
  type SchemaParser,
  type SchemaValidator,
  type ValidationOutcome,
} from '@wiremcp/json-schema';
import { InputRequiredError, type HandlerContext } from './handler-context.js';
import { prepareTool, type ToolConfig, type ToolExecution, type ToolHandler } from './typed-tool.js';
import type { CallToolResult, ToolDefinition } from './types.js';

export type { ToolHandler };

/** Handle of a registered tool: change it, disable it or remove it at runtime (clients are notified). */
export interface RegisteredTool {
  readonly name: string;
  readonly enabled: boolean;
  /**
   * Replaces parts of the definition (schemas may be Standard Schemas, as at registration) and/or the handler.
   * Renaming is allowed. The handler is not checked against new schemas: keep them in step.
   */
  update<Args = Record<string, unknown>>(
    changes: Partial<Omit<ToolConfig, 'name'>> & { name?: string; handler?: ToolHandler<Args, unknown> },
  ): void;
  enable(): void;
  disable(): void;
  remove(): void;
}

interface Entry {
  /** The registration as given (its schemas may be Standard Schemas). */
  config: ToolConfig | ToolDefinition;
  /** What `tools/list` shows. */
  definition: ToolDefinition;
  /** Stored with its argument type erased: arguments reach it only after they passed `inputSchema`. */
  handler: ToolHandler<never, unknown>;
  enabled: boolean;
  input: SchemaValidator | undefined;
  output: SchemaValidator | undefined;
  /** A Standard Schema's own check of the arguments, run instead of `input`. */
  parseInput: SchemaParser | undefined;
  /** A Standard Schema's own check of `structuredContent`, run instead of `output`. */
  parseOutput: SchemaParser | undefined;
}

/** Stands in for a compiled schema where a Standard Schema parses instead: a tool never compiles what it parses. */
const PARSED: SchemaValidator = (): ValidationOutcome => ({ valid: true, errors: [] });

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const NO_EXECUTION: ToolExecution = Object.freeze({});

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

/** What `tools/list` shows of a tool's execution: the spec's `taskSupport` (never the server-side hooks). */
function listedExecution(execution: ToolExecution): { taskSupport: string } {
  const support = execution.taskSupport ?? 'forbidden';
  if (support !== 'forbidden' && support !== 'optional' && support !== 'required') {
    throw new LocalError('INVALID_ARGUMENT', `execution.taskSupport must be forbidden, optional or required, not ${String(support)}`);
  }
  if (execution.beforeTask !== undefined && typeof execution.beforeTask !== 'function') {
    throw new LocalError('INVALID_ARGUMENT', 'execution.beforeTask must be a function');
  }
  return { taskSupport: support };
}

/** The registration turned into an entry's schemas; a Standard Schema without JSON Schema is `INVALID_ARGUMENT`. */
function prepared(config: ToolConfig | ToolDefinition, converter: JsonSchemaConverter | undefined) {
  let tool;
  try {
    tool = prepareTool(config, converter);
  } catch (error) {
    if (error instanceof SchemaError) throw new LocalError('INVALID_ARGUMENT', `Tool '${String(config.name)}': ${error.message}`);
    throw error;
  }
  const execution = (config as ToolConfig).execution;
  const definition =
    execution === undefined ? tool.definition : ({ ...tool.definition, execution: listedExecution(execution) } as ToolDefinition);
  checkDefinition(definition);
  return {
    definition,
    parseInput: tool.parseInput,
    parseOutput: tool.parseOutput,
    input: tool.parseInput ? PARSED : undefined,
    output: tool.parseOutput ? PARSED : undefined,
  };
}

/** The tools of a server: registration, listing, and calls with input and output validation. */
export class ToolRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #compiler: SchemaCompiler;
  readonly #converter: JsonSchemaConverter | undefined;
  readonly #changed: () => void;
  #listCache: ToolDefinition[] | undefined;
  #hasTaskTools: boolean | undefined;

  constructor(compiler: SchemaCompiler, changed: () => void, converter?: JsonSchemaConverter) {
    this.#compiler = compiler;
    this.#changed = changed;
    this.#converter = converter;
  }

  /** Number of registered tools (enabled or not). */
  get size(): number {
    return this.#entries.size;
  }

  #touch(): void {
    this.#listCache = undefined;
    this.#hasTaskTools = undefined;
    this.#changed();
  }

  /**
   * Adds a tool. Throws `INVALID_ARGUMENT` for a bad definition, a duplicate name, or a Standard Schema that has
   * no JSON Schema.
   */
  register(config: ToolConfig | ToolDefinition, handler: ToolHandler<never, unknown>): RegisteredTool {
    if (this.#entries.has(config.name)) throw new LocalError('INVALID_ARGUMENT', `Tool '${config.name}' is already registered`);
    const entry: Entry = { config, handler, enabled: true, ...prepared(config, this.#converter) };
    this.#entries.set(entry.definition.name, entry);
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
        const config = { ...entry.config, ...fields } as ToolConfig;
        const schemasChanged = 'inputSchema' in fields || 'outputSchema' in fields || 'execution' in fields;
        const next = schemasChanged
          ? prepared(config, this.#converter)
          : { definition: { ...entry.definition, ...fields } as ToolDefinition };
        checkDefinition(next.definition);
        const name = next.definition.name;
        if (name !== entry.definition.name) {
          if (this.#entries.has(name)) throw new LocalError('INVALID_ARGUMENT', `Tool '${name}' is already registered`);
          this.#entries.delete(entry.definition.name);
          this.#entries.set(name, entry);
        }
        Object.assign(entry, next);
        entry.config = config;
        if (nextHandler) entry.handler = nextHandler as ToolHandler<never, unknown>;
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

  /** How the enabled tool `name` runs as a task (its `execution` option), or `undefined` for an unknown tool. */
  execution(name: string): ToolExecution | undefined {
    const entry = this.#entries.get(name);
    if (!entry?.enabled) return undefined;
    return (entry.config as ToolConfig).execution ?? NO_EXECUTION;
  }

  /** True when some registered tool may run as a task (cached until the registry changes: read on every call). */
  get hasTaskTools(): boolean {
    return (this.#hasTaskTools ??= [...this.#entries.values()].some((entry) => {
      const support = (entry.config as ToolConfig).execution?.taskSupport;
      return support === 'optional' || support === 'required';
    }));
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
    const parse = entry.parseInput;
    if (parse !== undefined) return this.#runParsed(entry, parse(args), context);
    const checked = entry.input!(args);
    if (!checked.valid) {
      return text(`Invalid arguments for tool '${entry.definition.name}': ${checked.errors.join('; ')}`);
    }
    return this.#handle(entry, args, context);
  }

  /** Runs the handler with what a Standard Schema gave (its output type: defaults and transforms applied). */
  #runParsed(
    entry: Entry,
    parsed: ParseOutcome | Promise<ParseOutcome>,
    context: HandlerContext,
  ): CallToolResult | Promise<CallToolResult> {
    if (parsed instanceof Promise) return parsed.then((outcome) => this.#runParsed(entry, outcome, context));
    if (!parsed.valid) return text(`Invalid arguments for tool '${entry.definition.name}': ${parsed.errors.join('; ')}`);
    return this.#handle(entry, parsed.value, context);
  }

  #handle(entry: Entry, args: unknown, context: HandlerContext): CallToolResult | Promise<CallToolResult> {
    let outcome: CallToolResult | Promise<CallToolResult>;
    try {
      outcome = entry.handler(args as never, context) as CallToolResult | Promise<CallToolResult>;
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

  #finish(entry: Entry, result: CallToolResult): CallToolResult | Promise<CallToolResult> {
    if (typeof result !== 'object' || result === null) {
      return text(`Tool '${entry.definition.name}' returned no result object`);
    }
    const output = entry.output;
    if (output && !result.isError) {
      if (result.structuredContent === undefined) {
        return text(`Tool '${entry.definition.name}' declares an outputSchema but returned no structuredContent`);
      }
      const parse = entry.parseOutput;
      if (parse !== undefined) return this.#finishParsed(entry, result, parse(result.structuredContent));
      const checked = output(result.structuredContent);
      if (!checked.valid) {
        return text(
          `Tool '${entry.definition.name}' returned structuredContent that does not match its outputSchema: ${checked.errors.join('; ')}`,
        );
      }
    }
    return withContent(result);
  }

  /** Sends what the output Standard Schema gave (the value its `validate` returned), or says why it failed. */
  #finishParsed(
    entry: Entry,
    result: CallToolResult,
    parsed: ParseOutcome | Promise<ParseOutcome>,
  ): CallToolResult | Promise<CallToolResult> {
    if (parsed instanceof Promise) return parsed.then((outcome) => this.#finishParsed(entry, result, outcome));
    if (!parsed.valid) {
      return text(
        `Tool '${entry.definition.name}' returned structuredContent that does not match its outputSchema: ${parsed.errors.join('; ')}`,
      );
    }
    return withContent(result.structuredContent === parsed.value ? result : { ...result, structuredContent: parsed.value });
  }
}

/** A result with `content`: clients that predate structured output read the JSON from a text block (the spec's SHOULD). */
function withContent(result: CallToolResult): CallToolResult {
  if (result.content !== undefined) return result;
  const content = result.structuredContent === undefined ? [] : [{ type: 'text' as const, text: JSON.stringify(result.structuredContent) }];
  return { ...result, content };
}
