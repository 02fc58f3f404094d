import { ErrorCode, invalidParams, LocalError, RpcError, truncateInput } from '@wiremcp/protocol';
import type { JsonSchemaConverter, ParseOutcome, SchemaCompiler, SchemaParser } from '@wiremcp/json-schema';
import type { HandlerContext } from './handler-context.js';
import type { Outcome } from './server-peer.js';
import { preparePrompt, type PromptConfig } from './typed-prompt.js';
import type { CompletionProvider, GetPromptResult, PromptDefinition } from './types.js';

/** Builds a prompt's messages from its arguments (strings, or what its `argsSchema` gave). */
export type PromptHandler<Args = Record<string, string>> = (
  args: Args,
  context: HandlerContext,
) => GetPromptResult | Promise<GetPromptResult>;

/** Options of a prompt registration. */
export interface PromptOptions {
  /** Completion of argument values, by argument name. */
  complete?: Record<string, CompletionProvider>;
}

/** Handle of a registered prompt. */
export interface RegisteredPrompt {
  remove(): void;
}

interface Entry {
  definition: PromptDefinition;
  /** Stored with its argument type erased: arguments reach it only after its `argsSchema`, if any, passed them. */
  handler: PromptHandler<never>;
  options: PromptOptions;
  parseArgs: SchemaParser | undefined;
}

/** The prompts of a server. */
export class PromptRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #changed: () => void;
  readonly #compiler: SchemaCompiler;
  readonly #converter: JsonSchemaConverter | undefined;

  constructor(changed: () => void, compiler: SchemaCompiler, converter?: JsonSchemaConverter) {
    this.#changed = changed;
    this.#compiler = compiler;
    this.#converter = converter;
  }

  /** Number of prompts. */
  get size(): number {
    return this.#entries.size;
  }

  /** Adds a prompt; throws `INVALID_ARGUMENT` for a duplicate name or an unusable `argsSchema`. */
  register(config: PromptConfig | PromptDefinition, handler: PromptHandler<never>, options: PromptOptions = {}): RegisteredPrompt {
    if (typeof config.name !== 'string' || config.name.length === 0) throw new LocalError('INVALID_ARGUMENT', 'A prompt needs a name');
    if (this.#entries.has(config.name)) throw new LocalError('INVALID_ARGUMENT', `Prompt '${config.name}' is already registered`);
    const { definition, parseArgs } = preparePrompt(config as PromptConfig, this.#compiler, this.#converter);
    const entry: Entry = { definition, handler, options, parseArgs };
    this.#entries.set(definition.name, entry);
    this.#changed();
    return {
      remove: () => {
        if (this.#entries.get(definition.name) === entry) {
          this.#entries.delete(definition.name);
          this.#changed();
        }
      },
    };
  }

  /** Prompt definitions in registration order. */
  list(): PromptDefinition[] {
    return [...this.#entries.values()].map((entry) => entry.definition);
  }

  /**
   * Runs `prompts/get`: `-32602` for an unknown prompt, a missing required argument, a non-string value, or
   * arguments the prompt's `argsSchema` refuses.
   */
  get(params: Record<string, unknown> | undefined, context: HandlerContext): Outcome<GetPromptResult> {
    const name = params?.name;
    if (typeof name !== 'string') throw invalidParams('Invalid params: "name" must be a string');
    const entry = this.#entries.get(name);
    if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: '${truncateInput(name)}'`);
    const raw = params?.arguments ?? {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidParams('Invalid params: "arguments" must be an object');
    const args: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string')
        throw invalidParams(`Invalid params: argument '${truncateInput(key)}' of prompt '${name}' must be a string`);
      args[key] = value;
    }
    for (const argument of entry.definition.arguments ?? []) {
      if (argument.required && args[argument.name] === undefined) {
        throw invalidParams(`Missing required argument '${argument.name}' for prompt '${name}'`);
      }
    }
    const parse = entry.parseArgs;
    if (parse === undefined) return entry.handler(args as never, context);
    const run = (parsed: ParseOutcome): Outcome<GetPromptResult> => {
      if (!parsed.valid) throw invalidParams(`Invalid arguments for prompt '${name}': ${parsed.errors.join('; ')}`);
      return entry.handler(parsed.value as never, context);
    };
    const parsed = parse(args);
    return parsed instanceof Promise ? parsed.then(run) : run(parsed);
  }

  /** The completion provider of argument `argument` of prompt `name`; `null` when the prompt does not exist. */
  completer(name: string, argument: string): CompletionProvider | undefined | null {
    const entry = this.#entries.get(name);
    if (!entry) return null;
    return entry.options.complete?.[argument];
  }

  /** True when any prompt offers completion. */
  get hasCompletions(): boolean {
    return [...this.#entries.values()].some((entry) => entry.options.complete && Object.keys(entry.options.complete).length > 0);
  }
}
