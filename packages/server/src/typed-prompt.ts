/**
 * Typed prompts: the arguments a handler receives follow from the prompt's `arguments` list written as a literal
 * (`required: true` ones are there, the others may be absent), or from an `argsSchema` — a Standard Schema or a
 * JSON Schema literal of an object whose properties are the arguments — which the server lists as `arguments`
 * (names, titles, descriptions, `required`) and runs on every `prompts/get`.
 */
import {
  isStandardSchema,
  parserOf,
  SchemaError,
  standardJsonSchema,
  type JsonSchemaConverter,
  type SchemaCompiler,
  type SchemaOutput,
  type SchemaParser,
  type StandardSchemaV1,
} from '@wiremcp/json-schema';
import { LocalError } from '@wiremcp/protocol';
import type { DeepReadonly, ObjectSchemaLiteral } from './typed-tool.js';
import type { PromptArgument, PromptDefinition } from './types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * A prompt as `registerPrompt` takes it: the spec's `Prompt` (arrays readonly), or with an `argsSchema` in place of
 * `arguments` (not sent: the server lists the `arguments` it describes).
 */
export type PromptConfig = DeepReadonly<Omit<PromptDefinition, 'arguments'>> & {
  readonly arguments?: readonly DeepReadonly<PromptArgument>[];
  readonly argsSchema?: ObjectSchemaLiteral | StandardSchemaV1;
};

/** The arguments a literal `arguments` list describes: strings, required ones always there. */
type ArgsOfList<List> = List extends readonly (infer Arg)[]
  ? [Arg] extends [{ readonly name: infer Name }]
    ? string extends Name
      ? Record<string, string>
      : Simplify<
          {
            [
              P in Arg as P extends { readonly required: true } ? (P extends { readonly name: infer N extends string } ? N : never) : never
            ]: string;
          } & {
            [
              P in Arg as P extends { readonly required: true } ? never : P extends { readonly name: infer N extends string } ? N : never
            ]?: string;
          }
        >
    : Record<string, string>
  : Record<string, string>;

/** The arguments a handler of prompt `D` receives (see the module comment). */
export type PromptArgs<D> = D extends { readonly argsSchema: infer S extends object }
  ? unknown extends SchemaOutput<S>
    ? Record<string, string>
    : SchemaOutput<S>
  : D extends { readonly arguments: infer List }
    ? ArgsOfList<List>
    : Record<string, string>;

/** A registration turned into what the registry runs. */
export interface PreparedPrompt {
  readonly definition: PromptDefinition;
  readonly parseArgs: SchemaParser | undefined;
}

/** The `arguments` an object schema describes: one per property, in order, with its title and description. */
export function argumentsOf(schema: Record<string, unknown>): PromptArgument[] {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : []);
  return Object.entries(properties as Record<string, unknown>).map(([name, property]): PromptArgument => {
    const { title, description } = (typeof property === 'object' && property !== null ? property : {}) as Record<string, unknown>;
    const argument: PromptArgument = { name };
    if (typeof title === 'string') argument.title = title;
    if (typeof description === 'string') argument.description = description;
    if (required.has(name)) argument.required = true;
    return argument;
  });
}

/**
 * Prepares a registration: an `argsSchema` becomes the listed `arguments` and a parser. Throws
 * `INVALID_ARGUMENT` for both `arguments` and `argsSchema`, or a Standard Schema without JSON Schema.
 */
export function preparePrompt(config: PromptConfig, compiler: SchemaCompiler, converter: JsonSchemaConverter | undefined): PreparedPrompt {
  const { argsSchema, ...rest } = config;
  if (argsSchema === undefined) return { definition: config as PromptDefinition, parseArgs: undefined };
  if (config.arguments !== undefined) {
    throw new LocalError('INVALID_ARGUMENT', `Prompt '${config.name}': give arguments or argsSchema, not both`);
  }
  let json: Record<string, unknown>;
  try {
    json = isStandardSchema(argsSchema) ? standardJsonSchema(argsSchema, 'input', converter) : (argsSchema as Record<string, unknown>);
  } catch (error) {
    if (error instanceof SchemaError) throw new LocalError('INVALID_ARGUMENT', `Prompt '${config.name}': ${error.message}`);
    throw error;
  }
  const definition = { ...rest, arguments: argumentsOf(json) } as PromptDefinition;
  return { definition, parseArgs: parserOf(argsSchema, compiler) };
}
