/**
 * Typed resource templates: the variables a reader receives are read off the template text by the compiler
 * (`'demo://{kind}{/path*}{?q}'` gives `{ kind: string | string[]; path: string[]; q?: string | string[] }`), or are
 * the output type of a `variables` schema (a Standard Schema or a JSON Schema literal), which the server then runs
 * on every match: a URI whose variables it refuses is `-32602`.
 */
import type { SchemaOutput, SchemaParser, TypedSchema } from '@wiremcp/json-schema';
import type { DeepReadonly } from './typed-tool.js';
import type { ResourceTemplateDefinition } from './types.js';

/** The decoded variables of a URI matched by a template (see `UriTemplate.match`). */
export type TemplateVariables = Record<string, string | string[]>;

/** A template as `registerResourceTemplate` takes it: the spec's `ResourceTemplate`, arrays readonly. */
export type TemplateConfig = DeepReadonly<ResourceTemplateDefinition>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Operators whose variables are `name=value` pairs that may be absent. */
type NamedOperator = ';' | '?' | '&';
type Operator = '+' | '#' | '.' | '/' | NamedOperator;

type OperatorOf<Expression> = Expression extends `${infer First}${string}` ? (First extends Operator ? First : '') : '';
type BodyOf<Expression, Op extends string> = Op extends '' ? Expression : Expression extends `${Op}${infer Body}` ? Body : Expression;
type SpecsOf<Body> = Body extends `${infer Head},${infer Rest}` ? [Head, ...SpecsOf<Rest>] : [Body];
type NameOf<Spec> = Spec extends `${infer Name}*` ? Name : Spec extends `${infer Name}:${string}` ? Name : Spec;

/**
 * What one variable matches as: an exploded one a list; one of `+` or `#` a string (their commas are data);
 * any other a string, or a list when the URI holds literal commas (RFC 6570 value lists).
 */
type ValueOf<Op, Spec> = Spec extends `${string}*` ? string[] : Op extends '+' | '#' ? string : string | string[];

/** The variables of one expression: the first of an unnamed operator is always there, the others may be absent. */
type ExpressionVariables<Op, Specs, First extends boolean> = Specs extends [infer Spec, ...infer Rest]
  ? (First extends true
      ? Op extends NamedOperator
        ? { [K in NameOf<Spec> & string]?: ValueOf<Op, Spec> }
        : { [K in NameOf<Spec> & string]: ValueOf<Op, Spec> }
      : { [K in NameOf<Spec> & string]?: ValueOf<Op, Spec> }) &
      ExpressionVariables<Op, Rest, false>
  : {};

type VariablesOf<Template> = Template extends `${string}{${infer Expression}}${infer Rest}`
  ? ExpressionVariables<OperatorOf<Expression>, SpecsOf<BodyOf<Expression, OperatorOf<Expression>>>, true> & VariablesOf<Rest>
  : {};

/** The variables a template text matches, when it is a literal type; {@link TemplateVariables} otherwise. */
export type TemplateVariablesOf<Template> = string extends Template ? TemplateVariables : Simplify<VariablesOf<Template>>;

/**
 * The variables a reader of template `D` receives: the output type of the `variables` schema `S` when one is
 * given, else what the template text says.
 */
export type TemplateReaderVariables<D, S> = [S] extends [undefined]
  ? D extends { readonly uriTemplate: infer Template }
    ? TemplateVariablesOf<Template>
    : TemplateVariables
  : SchemaOutput<S>;

/** The options a typed template adds: a schema its matched variables must pass (and are parsed by). */
export interface TemplateSchemaOption<S extends TypedSchema | undefined = TypedSchema | undefined> {
  /**
   * Checks and parses the variables of every matched URI (a Standard Schema — e.g. `z.object({ id:
   * z.coerce.number() })` — or a JSON Schema literal); the reader receives what it gives. A URI whose variables it
   * refuses is answered `-32602` with the reasons.
   */
  variables?: S;
}

/** A parser of the variables of one template (internal). */
export type VariablesParser = SchemaParser;
