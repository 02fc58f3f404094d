/**
 * The TypeScript type a JSON Schema literal describes, computed by the compiler: `FromJsonSchema<typeof schema>`
 * for a schema written `as const` (or passed to a function with a `const` type parameter, as `registerTool` does).
 * Types only: nothing here exists at run time.
 *
 * Covered: `type` (one or a list, `integer` as `number`), `const`, `enum`, `properties` with `required`,
 * `additionalProperties` (`false`, a schema, or the default `unknown` values), `items`, `prefixItems`, `anyOf`,
 * `oneOf`, `allOf`, `true`/`false`, and schemas without `type` that have `properties` or `items`. Not followed:
 * `$ref`, conditionals (`if`/`then`), `not`, `patternProperties`, `dependentSchemas`; what they describe is
 * typed as `Opaque` (default `unknown`), which is also what a schema that is not a literal gets (a `type` widened
 * to `string`, a `properties` map typed as an index signature). Validation at run time is the compiled schema's,
 * never these types'.
 */

/** Flattens an intersection of object types into one, for readable hover types. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Any JSON Schema: `true`, `false`, or an object of keywords (readonly, as `as const` makes it). */
export type JsonSchemaLiteral = boolean | { readonly [keyword: string]: unknown };

/**
 * The type of an object schema. Without `properties` (nor `required`, nor `additionalProperties`) the schema does
 * not describe the shape, which is then `Opaque` too: a record of anything, or `never` for the check of a handler.
 */
type FromObject<S, Opaque> = S extends { readonly properties: infer Props }
  ? Props extends { readonly [key: string]: unknown }
    ? string extends keyof Props
      ? OpaqueRecord<Opaque>
      : ObjectOf<S, Props, Opaque>
    : OpaqueRecord<Opaque>
  : S extends { readonly required: unknown } | { readonly additionalProperties: unknown }
    ? ObjectOf<S, {}, Opaque>
    : OpaqueRecord<Opaque>;

/** An object whose shape is not known: any keys, and `Opaque` values (`never` for the check of a handler's type). */
type OpaqueRecord<Opaque> = [Opaque] extends [never] ? never : { [key: string]: Opaque };

type RequiredKeys<S> = S extends { readonly required: readonly (infer Key)[] } ? Key & string : never;

type ObjectOf<S, Props, Opaque> = Simplify<
  { -readonly [K in keyof Props & RequiredKeys<S>]-?: FromJsonSchema<Props[K], Opaque> } & {
    -readonly [K in Exclude<keyof Props, RequiredKeys<S>>]?: FromJsonSchema<Props[K], Opaque>;
  } & { -readonly [K in Exclude<RequiredKeys<S>, keyof Props>]: unknown } & Additional<S, Opaque>
>;

/** What keys beyond `properties` hold: nothing with `additionalProperties: false`, else their schema's type. */
type Additional<S, Opaque> = S extends { readonly additionalProperties: false }
  ? {}
  : S extends { readonly additionalProperties: infer A extends JsonSchemaLiteral }
    ? A extends true
      ? { [key: string]: unknown }
      : { [key: string]: FromJsonSchema<A, Opaque> }
    : { [key: string]: unknown };

/** The type of an array schema. */
type FromArray<S, Opaque> = S extends { readonly prefixItems: infer Prefix extends readonly unknown[] }
  ? [...{ -readonly [I in keyof Prefix]: FromJsonSchema<Prefix[I], Opaque> }, ...RestItems<S, Opaque>[]]
  : RestItems<S, Opaque>[];

type RestItems<S, Opaque> = S extends { readonly items: infer Items }
  ? Items extends readonly unknown[]
    ? Opaque // draft-04 style tuple items: not followed
    : FromJsonSchema<Items, Opaque>
  : unknown;

/** The type of one `type` name. */
type FromTypeName<Name, S, Opaque> = Name extends 'string'
  ? string
  : Name extends 'number' | 'integer'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'array'
          ? FromArray<S, Opaque>
          : Name extends 'object'
            ? FromObject<S, Opaque>
            : Opaque;

type FromUnion<Members, Opaque> = Members extends readonly (infer Member)[]
  ? Member extends unknown
    ? FromJsonSchema<Member, Opaque>
    : never
  : Opaque;

type FromIntersection<Members, Opaque> = Members extends readonly [infer First, ...infer Rest]
  ? FromJsonSchema<First, Opaque> & FromIntersection<Rest, Opaque>
  : unknown;

/** The type a JSON Schema literal `S` describes; see the module comment. */
export type FromJsonSchema<S, Opaque = unknown> = S extends true
  ? unknown
  : S extends false
    ? never
    : string extends keyof S
      ? Opaque // typed as a map of keywords (not a literal): nothing to read
      : S extends { readonly const: infer Value }
        ? Value
        : S extends { readonly enum: readonly (infer Value)[] }
          ? Value
          : S extends { readonly anyOf: infer Members }
            ? FromUnion<Members, Opaque>
            : S extends { readonly oneOf: infer Members }
              ? FromUnion<Members, Opaque>
              : S extends { readonly allOf: infer Members }
                ? FromIntersection<Members, Opaque>
                : S extends { readonly type: infer Type }
                  ? string extends Type
                    ? Opaque
                    : Type extends readonly (infer Names)[]
                      ? Names extends unknown
                        ? FromTypeName<Names, S, Opaque>
                        : never
                      : FromTypeName<Type, S, Opaque>
                  : S extends { readonly $ref: unknown }
                    ? Opaque
                    : S extends { readonly properties: unknown }
                      ? FromObject<S, Opaque>
                      : S extends { readonly items: unknown } | { readonly prefixItems: unknown }
                        ? FromArray<S, Opaque>
                        : S extends { readonly [keyword: string]: unknown }
                          ? unknown
                          : Opaque;
