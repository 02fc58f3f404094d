/**
 * A JSON Schema compiler for the schemas MCP carries (tool `inputSchema`/`outputSchema`, elicitation schemas).
 *
 * - Dialect: `$schema` selects draft-07 or 2020-12; without it the configured default applies (2020-12, the MCP
 *   default since 2025-11-25). Unknown `$schema` URIs are refused with a clear error rather than guessed.
 * - Cost: ajv is imported on first use (it adds ~30 ms to process start), each schema is compiled once (cached by
 *   object identity) and validation afterwards is a plain function call.
 * - Runtimes without code generation (Cloudflare Workers): an interpreting engine is used instead of ajv there.
 * - Safety: remote `$ref`s are never fetched (MCP forbids auto-dereferencing network refs); schemas above a size
 *   limit are refused.
 */

import { canGenerateCode, interpretedValidator } from './interpreted-engine.js';

/** The outcome of validating one value. */
export interface ValidationOutcome {
  readonly valid: boolean;
  /** Human-readable problems, e.g. `/verb: must be string`; empty when valid. */
  readonly errors: readonly string[];
}

/** A compiled schema. */
export type SchemaValidator = (value: unknown) => ValidationOutcome;

/** JSON Schema dialects wiremcp compiles. */
export type SchemaDialect = 'draft-07' | '2020-12';

/** Options of {@link createSchemaCompiler}. */
export interface SchemaCompilerOptions {
  /** Dialect of schemas without `$schema` (default `2020-12`). */
  defaultDialect?: SchemaDialect;
  /** Largest schema accepted, in bytes of its JSON (default 256 KiB). */
  maxSchemaBytes?: number;
  /** Validate `format` keywords (email, uri, date-time…) (default true). */
  formats?: boolean;
  /** Report every problem rather than the first (default true: error texts go to models, which fix all at once). */
  allErrors?: boolean;
  /**
   * How schemas are validated: `'ajv'` compiles each into code (fastest; needs `new Function`), `'interpreter'` walks
   * the schema (`@cfworker/json-schema`: runs where code generation is forbidden, such as Cloudflare Workers), and
   * `'auto'` (the default) uses ajv where the runtime allows code generation and the interpreter elsewhere.
   */
  engine?: 'auto' | 'ajv' | 'interpreter';
}

/** Compiles schemas, caching the result per schema object. */
export interface SchemaCompiler {
  /** The cached validator of `schema`, if it was compiled before. Synchronous: the hot path uses this. */
  cached(schema: object): SchemaValidator | undefined;
  /** Compiles (or returns the cached validator of) `schema`. Rejects with a SchemaError when it is unusable. */
  compile(schema: object): Promise<SchemaValidator>;
}

/** A schema that cannot be compiled (bad dialect, too large, invalid). */
export class SchemaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SchemaError';
  }
}

const DRAFT_07 = new Set([
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft-07/schema',
]);
const DRAFT_2020 = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);

/** The dialect a schema declares (or the default when it declares none). Throws SchemaError for others. */
export function dialectOf(schema: object, fallback: SchemaDialect = '2020-12'): SchemaDialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return fallback;
  if (typeof declared === 'string') {
    if (DRAFT_07.has(declared)) return 'draft-07';
    if (DRAFT_2020.has(declared)) return '2020-12';
  }
  throw new SchemaError(`Unsupported JSON Schema dialect ${JSON.stringify(declared)}: use draft-07 or 2020-12`);
}

interface AjvLike {
  compile(schema: object): ((value: unknown) => boolean) & {
    errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown>; keyword: string }> | null;
  };
}

interface Engines {
  draft07: AjvLike;
  draft2020: AjvLike;
}

/**
 * The longest piece of the validated value (a property name, a path into it) an error quotes; longer ones are cut
 * and end with `…`. The value is the caller's input, and errors go back to it: they must not echo it whole.
 */
export const MAX_QUOTED_LENGTH = 128;

function quoted(text: string): string {
  return text.length <= MAX_QUOTED_LENGTH ? text : `${text.slice(0, MAX_QUOTED_LENGTH)}…`;
}

function describe(errors: NonNullable<ReturnType<AjvLike['compile']>['errors']>): string[] {
  return errors.map((error) => {
    const where = error.instancePath === '' ? '(root)' : quoted(error.instancePath);
    let text = error.message ?? `fails '${error.keyword}'`;
    const params = error.params ?? {};
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      text += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      text += `: '${quoted(params.additionalProperty)}'`;
    }
    return `${where}: ${text}`;
  });
}

const VALID: ValidationOutcome = Object.freeze({ valid: true, errors: Object.freeze([]) as readonly string[] });

/** Creates a compiler; nothing is loaded until the first `compile` (and only the engine used is loaded). */
export function createSchemaCompiler(options: SchemaCompilerOptions = {}): SchemaCompiler {
  const fallback = options.defaultDialect ?? '2020-12';
  const maxBytes = options.maxSchemaBytes ?? 256 * 1024;
  const cache = new WeakMap<object, SchemaValidator>();
  let engines: Promise<Engines> | undefined;
  let interpret: boolean | undefined;
  const interpreted = (): boolean => (interpret ??= options.engine === 'interpreter' || (options.engine !== 'ajv' && !canGenerateCode()));

  const load = (): Promise<Engines> =>
    (engines ??= (async () => {
      const [draft07Module, draft2020Module, formatsModule] = await Promise.all([
        import('ajv'),
        import('ajv/dist/2020.js'),
        options.formats === false ? Promise.resolve(undefined) : import('ajv-formats'),
      ]);
      const common = {
        allErrors: options.allErrors ?? true,
        strict: false,
        validateSchema: true,
        // Schemas with the same $id (two tools sharing one) must not collide inside the shared instance.
        addUsedSchema: false,
        // Never fetch: MCP forbids auto-dereferencing network $refs.
        loadSchema: undefined,
      };
      const Draft07 = (draft07Module as unknown as { default: new (o: object) => AjvLike }).default;
      const Draft2020 = (draft2020Module as unknown as { default: new (o: object) => AjvLike }).default;
      const draft07 = new Draft07(common);
      const draft2020 = new Draft2020(common);
      if (formatsModule) {
        const addFormats = (formatsModule as unknown as { default: (ajv: AjvLike) => void }).default;
        addFormats(draft07);
        addFormats(draft2020);
      }
      return { draft07, draft2020 };
    })());

  return {
    cached: (schema) => cache.get(schema),
    async compile(schema) {
      const hit = cache.get(schema);
      if (hit) return hit;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        throw new SchemaError('A schema must be a JSON object');
      }
      let size: number;
      try {
        size = JSON.stringify(schema).length;
      } catch (cause) {
        throw new SchemaError('A schema must be serializable JSON', { cause });
      }
      if (size > maxBytes) throw new SchemaError(`Schema of ${size} bytes exceeds the limit of ${maxBytes} bytes`);
      const dialect = dialectOf(schema, fallback);
      if (interpreted()) {
        let check: (value: unknown) => ValidationOutcome | undefined;
        try {
          check = await interpretedValidator(schema, dialect, options.allErrors ?? true, quoted);
        } catch (cause) {
          throw new SchemaError(`Invalid JSON Schema: ${(cause as Error).message}`, { cause });
        }
        const validator: SchemaValidator = (value) => check(value) ?? VALID;
        cache.set(schema, validator);
        return validator;
      }
      const { draft07, draft2020 } = await load();
      let check: ReturnType<AjvLike['compile']>;
      try {
        check = (dialect === 'draft-07' ? draft07 : draft2020).compile(schema);
      } catch (cause) {
        throw new SchemaError(`Invalid JSON Schema: ${(cause as Error).message}`, { cause });
      }
      const validator: SchemaValidator = (value) => (check(value) ? VALID : { valid: false, errors: describe(check.errors ?? []) });
      cache.set(schema, validator);
      return validator;
    },
  };
}
