/**
 * Typed tools: a tool's `inputSchema` and `outputSchema` may be JSON Schema literals or Standard Schema validators
 * (zod, valibot, ArkType…), and the handler's argument and `structuredContent` types follow from them. The types
 * are computed by the compiler; at run time, registration turns Standard Schemas into JSON Schema for `tools/list`
 * and keeps their own `validate` to check arguments and results — each value is checked once, by one validator.
 */
import {
  isStandardSchema,
  standardJsonSchema,
  standardParser,
  type FromJsonSchema,
  type JsonSchemaConverter,
  type SchemaInput,
  type SchemaOutput,
  type SchemaParser,
  type StandardSchemaV1,
} from '@wiremcp/json-schema';
import type { HandlerContext } from './handler-context.js';
import type { CallToolResult, ToolDefinition } from './types.js';

/** `T` with every array readonly, deeply: what a `const` type parameter infers from a literal must fit it. */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** A JSON Schema object literal with `type: "object"`, as a tool's `inputSchema` must be. */
export type ObjectSchemaLiteral = { readonly type: 'object'; readonly [keyword: string]: unknown };

/**
 * A tool as `registerTool` takes it: the spec's `Tool`, whose `inputSchema` and `outputSchema` may also be
 * Standard Schema validators (listed as the JSON Schema of their input side, resp. output side).
 */
export type ToolConfig = DeepReadonly<Omit<ToolDefinition, 'inputSchema' | 'outputSchema'>> & {
  readonly inputSchema: ObjectSchemaLiteral | StandardSchemaV1;
  readonly outputSchema?: { readonly [keyword: string]: unknown } | StandardSchemaV1;
  /** Whether calls may run as tasks (see {@link ToolExecution}); listed to 2025-11-25 clients as `execution.taskSupport`. */
  readonly execution?: ToolExecution;
};

/**
 * How a tool runs as a task. `taskSupport`: `forbidden` (the default) never; `optional` when the client asks for a
 * task (2025-11-25 `params.task`) or, in 2026-07-28, whenever the request declares the `io.modelcontextprotocol/tasks`
 * extension (the server decides); `required` always — a call that cannot be a task is refused (`-32601` in
 * 2025-11-25, `-32021` naming the extension in 2026-07-28). A task runs the handler in the background with a
 * context whose `task` is set and whose `signal` aborts on `tasks/cancel`.
 */
export interface ToolExecution {
  readonly taskSupport?: 'forbidden' | 'optional' | 'required';
  /**
   * Runs in the creating request before the task is created, with the request's context — where 2026-07-28 input
   * rounds (MRTR) are still possible: gather what the task needs here. Its arguments are the call's arguments as
   * sent (not yet validated); what it returns reaches the handler as `context.task.prepared`.
   */
  readonly beforeTask?: (args: Record<string, unknown>, context: HandlerContext) => unknown;
}

type InputSchemaOf<D> = D extends { readonly inputSchema: infer S } ? S : never;

/**
 * The arguments a handler of tool `D` receives: the output type of a Standard Schema, the type of a JSON Schema
 * literal, or `Record<string, unknown>` when the schema is not a literal (then annotate the handler's parameter).
 */
export type ToolArgs<D> = unknown extends SchemaOutput<InputSchemaOf<D>> ? Record<string, unknown> : SchemaOutput<InputSchemaOf<D>>;

/** What `ToolArgs` is checked against: the same type with the parts a non-literal schema leaves open as `never`. */
type CheckedArgs<D> = InputSchemaOf<D> extends StandardSchemaV1 ? SchemaOutput<InputSchemaOf<D>> : FromJsonSchema<InputSchemaOf<D>, never>;

/**
 * Nothing when a handler's (annotated) parameter type accepts every value `Expected` describes; otherwise a
 * property no function has, named `What`, so that the compiler names the mismatch.
 */
export type ParamCheck<Expected, Param, What extends string> = [Expected] extends [Param] ? unknown : { readonly [K in What]: Expected };

/** {@link ParamCheck} of a tool handler's arguments against its `inputSchema`. */
export type ArgsCheck<D, Args> = ParamCheck<CheckedArgs<D>, Args, 'the handler arguments do not match inputSchema'>;

/**
 * The `structuredContent` a handler of tool `D` returns: the input type of a Standard Schema `outputSchema` (the
 * server sends what its `validate` gives), the type of a JSON Schema literal; `undefined` without `outputSchema`.
 */
export type ToolStructured<D> = D extends { readonly outputSchema: infer S extends object } ? SchemaInput<S> : undefined;

/** A tool result whose `structuredContent` is typed: required unless the result is an error. */
export type TypedCallToolResult<T> =
  | (Omit<CallToolResult, 'structuredContent' | 'isError'> & { structuredContent: T; isError?: false })
  | (CallToolResult & { isError: true });

/**
 * What a handler returns: a typed result when the tool declares an `outputSchema` whose type is known, else any
 * `CallToolResult` (the server still checks `structuredContent` against the schema at run time).
 */
export type ToolResultOf<Structured> = [Structured] extends [undefined]
  ? CallToolResult
  : unknown extends Structured
    ? CallToolResult
    : TypedCallToolResult<Structured>;

/** Runs a tool. Return a result; throw to answer `isError: true` with the error's message. */
export type ToolHandler<Args = Record<string, unknown>, Result = CallToolResult> = (
  args: Args,
  context: HandlerContext,
) => Result | Promise<Result>;

/** A registration turned into what the registry runs: the listed definition, and the Standard parsers if any. */
export interface PreparedTool {
  readonly definition: ToolDefinition;
  /** Checks (and parses) the arguments instead of the compiled `inputSchema`. */
  readonly parseInput: SchemaParser | undefined;
  /** Checks (and parses) `structuredContent` instead of the compiled `outputSchema`. */
  readonly parseOutput: SchemaParser | undefined;
}

/**
 * Prepares a registration: Standard Schemas become JSON Schema (`~standard.jsonSchema`, else `converter`) and
 * parsers. Throws a SchemaError when a Standard Schema has no JSON Schema.
 */
export function prepareTool(config: ToolConfig | ToolDefinition, converter: JsonSchemaConverter | undefined): PreparedTool {
  const { inputSchema, outputSchema } = config as { inputSchema: unknown; outputSchema?: unknown };
  const standardInput = isStandardSchema(inputSchema) ? inputSchema : undefined;
  const standardOutput = isStandardSchema(outputSchema) ? outputSchema : undefined;
  if (!standardInput && !standardOutput) return { definition: config as ToolDefinition, parseInput: undefined, parseOutput: undefined };
  const definition = { ...config } as ToolDefinition;
  if (standardInput) definition.inputSchema = standardJsonSchema(standardInput, 'input', converter) as ToolDefinition['inputSchema'];
  if (standardOutput) definition.outputSchema = standardJsonSchema(standardOutput, 'output', converter);
  return {
    definition,
    parseInput: standardInput && standardParser(standardInput),
    parseOutput: standardOutput && standardParser(standardOutput),
  };
}
