/**
 * Typed structured output on the client: `callTool(name, args, { outputSchema })` checks the result's
 * `structuredContent` against a schema the caller gives — a Standard Schema (zod, valibot, ArkType…) or a JSON
 * Schema literal — and types the result by it. The caller's schema is the contract: it replaces the check against
 * the `outputSchema` the server listed (no listing, no second validation), and a Standard Schema's output (what
 * its `validate` returns: defaults, transforms) is what the result carries.
 */
import { LocalError } from '@wiremcp/protocol';
import { createSchemaCompiler, parserOf, type SchemaCompiler, type SchemaParser, type TypedSchema } from '@wiremcp/json-schema';
import type { CallOptions } from './options.js';
import type { CallToolResult } from './types.js';

/** A tool result whose `structuredContent` is typed: there (and checked) unless the result is an error. */
export type TypedCallToolResult<T> =
  | (Omit<CallToolResult, 'structuredContent' | 'isError'> & { structuredContent: T; isError?: false })
  | (CallToolResult & { isError: true });

/** Options of a typed `callTool`: the schema its `structuredContent` must pass. */
export interface TypedCallOptions<S extends TypedSchema> extends CallOptions {
  /** Checks (and, for a Standard Schema, parses) `structuredContent`; `INVALID_RESULT` when it does not pass. */
  outputSchema: S;
}

/** Checks results against caller-given schemas; one parser per schema object. */
export class StructuredOutput {
  readonly #parsers = new WeakMap<object, SchemaParser>();
  readonly #given: SchemaCompiler | undefined;
  #compiler: SchemaCompiler | undefined;

  constructor(compiler: SchemaCompiler | undefined) {
    this.#given = compiler;
  }

  /** The result with its `structuredContent` parsed by `schema`, or a rejection with `INVALID_RESULT`. */
  async check(tool: string, result: CallToolResult, schema: TypedSchema): Promise<CallToolResult> {
    if (result.isError === true) return result;
    if (result.structuredContent === undefined) {
      throw new LocalError('INVALID_RESULT', `Tool '${tool}' returned no structuredContent to check against the given outputSchema`, {
        details: { tool, errors: ['(root): structuredContent is missing'] },
      });
    }
    const key = typeof schema === 'object' ? schema : { boolean: schema };
    let parse = this.#parsers.get(key);
    if (!parse) {
      parse = parserOf(schema, this.#given ?? (this.#compiler ??= createSchemaCompiler()));
      if (typeof schema === 'object') this.#parsers.set(schema, parse);
    }
    let outcome;
    try {
      outcome = await parse(result.structuredContent);
    } catch (error) {
      throw new LocalError('INVALID_RESULT', `The given outputSchema cannot be used: ${(error as Error).message}`, {
        cause: error,
        details: { tool },
      });
    }
    if (!outcome.valid) {
      throw new LocalError(
        'INVALID_RESULT',
        `The structuredContent of tool '${tool}' does not match the given outputSchema: ${outcome.errors.join('; ')}`,
        { details: { tool, errors: outcome.errors, structuredContent: result.structuredContent } },
      );
    }
    return outcome.value === result.structuredContent ? result : { ...result, structuredContent: outcome.value };
  }
}
