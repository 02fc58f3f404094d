import { ErrorCode, invalidParams, LocalError, quoteInput, RpcError, truncateInput } from '@wiremcp/protocol';
import { parserOf, type SchemaCompiler, type SchemaParser, type TypedSchema } from '@wiremcp/json-schema';
import { checkCacheHint, combinedHint, hintedRead, withoutHint } from './cache-hints.js';
import type { HandlerContext } from './handler-context.js';
import type { Outcome } from './server-peer.js';
import type { TemplateVariables } from './typed-template.js';
import { UriTemplate } from './uri-template.js';
import type { CacheHint, CompletionProvider, ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition } from './types.js';

/** Reads a fixed resource. */
export type ResourceReader = (uri: string, context: HandlerContext) => ReadResourceResult | Promise<ReadResourceResult>;

export type { TemplateVariables };

/** Reads a resource matched by a template; `variables` are the decoded template variables. */
export type TemplateReader<Variables = TemplateVariables> = (
  uri: string,
  variables: Variables,
  context: HandlerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** Enumerates concrete resources of a template for `resources/list`, with the context of that request. */
export type TemplateLister = (context: HandlerContext) => ResourceDefinition[] | Promise<ResourceDefinition[]>;

/** Options of a fixed resource. */
export interface ResourceOptions {
  /**
   * The caching hint of its 2026-07-28 reads (default: the server's `caching['resources/read']`). A hint the reader
   * returns for one read wins. Never sent to legacy sessions.
   */
  cache?: CacheHint;
}

/** Options of a resource template registration. */
export interface TemplateOptions {
  /** Completion of template variables, by variable name. */
  complete?: Record<string, CompletionProvider>;
  /** Enumerates concrete resources of this template for `resources/list`. */
  list?: TemplateLister;
  /** The caching hint of the 2026-07-28 reads of resources this template matches (as {@link ResourceOptions.cache}). */
  cache?: CacheHint;
  /**
   * What `list` contributes to the hint of `resources/list`: the list gets the shortest `ttlMs` of the server's
   * and every listing template's, and is `private` when any is (a listing that depends on who asks, e.g. on the
   * client's roots, must be private). Applies to every page of the list alike.
   */
  listCache?: CacheHint;
}

/** What `update` of a fixed resource may change: its listing entry (the URI too), its reader, its hint. */
export type ResourceChanges = Partial<ResourceDefinition> & { read?: ResourceReader; cache?: CacheHint | null };

/** What `update` of a template may change: its definition (the template too), its reader and options. */
export type TemplateChanges = Partial<ResourceTemplateDefinition> & { read?: TemplateReader<never> } & {
  [K in keyof TemplateOptions]?: TemplateOptions[K] | null;
};

/** Handle of a registered fixed resource. */
export interface RegisteredResource {
  /** Its URI (changes with `update({uri})`). */
  readonly uri: string;
  /**
   * Changes its listing entry (title, size, annotations…), reader or hint in place: it keeps its position in
   * `resources/list`, and clients hear `list_changed`. `cache: null` removes the hint. Throws `INVALID_ARGUMENT`
   * for a URI another resource has.
   */
  update(changes: ResourceChanges): void;
  /** Removes it (clients hear `list_changed`). */
  remove(): void;
}

/** Handle of a registered resource template. */
export interface RegisteredResourceTemplate {
  /** Its URI template (changes with `update({uriTemplate})`). */
  readonly uriTemplate: string;
  /** Changes its definition, reader or options in place (`null` removes an option); clients hear `list_changed`. */
  update(changes: TemplateChanges): void;
  /** Removes it (clients hear `list_changed`). */
  remove(): void;
}

/** How `resources/list` orders fixed resources and the resources that templates list. */
export type ResourceListOrder = 'direct-first' | 'registration';

/**
 * Thrown (by a reader, or by the server when nothing matches) for a resource that does not exist. Sent as
 * `-32002` in legacy revisions and `-32602` in 2026-07-28 (which reserves -32002), with `data.uri`; the message
 * and `data.uri` quote the URI up to `MAX_QUOTED_INPUT_LENGTH` code units.
 */
export class ResourceNotFoundError extends Error {
  constructor(readonly uri: string) {
    super(`Resource not found: ${truncateInput(uri)}`);
    this.name = 'ResourceNotFoundError';
  }

  /** The wire error for the era of the request. */
  toRpcError(era: 'legacy' | 'modern'): RpcError {
    return new RpcError(era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, this.message, {
      uri: truncateInput(this.uri),
    });
  }
}

interface FixedEntry {
  readonly seq: number;
  definition: ResourceDefinition;
  read: ResourceReader;
  cache: CacheHint | undefined;
}

interface TemplateEntry {
  readonly seq: number;
  definition: ResourceTemplateDefinition;
  template: UriTemplate;
  /** Stored with its variables' type erased: they reach it only after its `variables` schema, if any, passed them. */
  read: TemplateReader<never>;
  options: TemplateOptions;
  /** The `variables` schema's check, run on every match. */
  parseVariables: SchemaParser | undefined;
}

function checkOptions(options: TemplateOptions | ResourceOptions, where: string): void {
  checkCacheHint(options.cache, where);
  if ('listCache' in options) checkCacheHint(options.listCache, where);
}

function apply<T>(outcome: Outcome<T>, next: (value: T) => T): Outcome<T> {
  return outcome instanceof Promise ? outcome.then(next) : next(outcome);
}

/** Fixed resources and RFC 6570 templates. */
export class ResourceRegistry {
  readonly #fixed = new Map<string, FixedEntry>();
  readonly #templates: TemplateEntry[] = [];
  readonly #changed: () => void;
  readonly #compiler: SchemaCompiler;
  #seq = 0;

  constructor(changed: () => void, compiler: SchemaCompiler) {
    this.#changed = changed;
    this.#compiler = compiler;
  }

  /** Number of fixed resources plus templates. */
  get size(): number {
    return this.#fixed.size + this.#templates.length;
  }

  /** Adds a fixed resource; throws `INVALID_ARGUMENT` for a duplicate URI or a bad option. */
  register(definition: ResourceDefinition, read: ResourceReader, options: ResourceOptions = {}): RegisteredResource {
    if (typeof definition.uri !== 'string' || definition.uri.length === 0)
      throw new LocalError('INVALID_ARGUMENT', 'A resource needs a uri');
    if (this.#fixed.has(definition.uri)) throw new LocalError('INVALID_ARGUMENT', `Resource '${definition.uri}' is already registered`);
    checkOptions(options, `Resource '${definition.uri}'`);
    const entry: FixedEntry = { seq: this.#seq++, definition, read, cache: options.cache };
    this.#fixed.set(definition.uri, entry);
    this.#changed();
    return {
      get uri() {
        return entry.definition.uri;
      },
      update: (changes) => this.#updateFixed(entry, changes),
      remove: () => {
        if (this.#fixed.get(entry.definition.uri) === entry) {
          this.#fixed.delete(entry.definition.uri);
          this.#changed();
        }
      },
    };
  }

  #updateFixed(entry: FixedEntry, changes: ResourceChanges): void {
    const { read, cache, ...fields } = changes;
    const next = { ...entry.definition, ...fields };
    if (typeof next.uri !== 'string' || next.uri.length === 0) throw new LocalError('INVALID_ARGUMENT', 'A resource needs a uri');
    checkCacheHint(cache ?? undefined, `Resource '${next.uri}'`);
    const old = entry.definition.uri;
    if (this.#fixed.get(old) !== entry) throw new LocalError('INVALID_ARGUMENT', `Resource '${old}' was removed`);
    if (next.uri !== old) {
      if (this.#fixed.has(next.uri)) throw new LocalError('INVALID_ARGUMENT', `Resource '${next.uri}' is already registered`);
      // Rebuilt in order, so a renamed resource keeps its place in the list.
      const entries = [...this.#fixed];
      this.#fixed.clear();
      for (const [uri, value] of entries) this.#fixed.set(uri === old ? next.uri : uri, value);
    }
    entry.definition = next;
    if (read) entry.read = read;
    if (cache !== undefined) entry.cache = cache ?? undefined;
    this.#changed();
  }

  /** Adds a template; throws a UriTemplateError for an invalid one, `INVALID_ARGUMENT` for a bad option. */
  registerTemplate(
    definition: ResourceTemplateDefinition,
    read: TemplateReader<never>,
    options: TemplateOptions & { variables?: TypedSchema | undefined } = {},
  ): RegisteredResourceTemplate {
    checkOptions(options, `Resource template '${definition.uriTemplate}'`);
    const { variables, ...rest } = options;
    const entry: TemplateEntry = {
      seq: this.#seq++,
      definition,
      template: new UriTemplate(definition.uriTemplate),
      read,
      options: rest,
      parseVariables: variables === undefined ? undefined : parserOf(variables, this.#compiler),
    };
    this.#templates.push(entry);
    this.#changed();
    return {
      get uriTemplate() {
        return entry.definition.uriTemplate;
      },
      update: (changes) => {
        const { read: nextRead, complete, list, cache, listCache, ...fields } = changes;
        const definition = { ...entry.definition, ...fields };
        const template = definition.uriTemplate === entry.template.template ? entry.template : new UriTemplate(definition.uriTemplate);
        const options: TemplateOptions = { ...entry.options };
        const given = { complete, list, cache, listCache };
        for (const key of Object.keys(given) as Array<keyof TemplateOptions>) {
          const value = given[key];
          if (value === null) delete options[key];
          else if (value !== undefined) (options as Record<string, unknown>)[key] = value;
        }
        checkOptions(options, `Resource template '${definition.uriTemplate}'`);
        entry.definition = definition;
        entry.template = template;
        entry.options = options;
        if (nextRead) entry.read = nextRead;
        this.#changed();
      },
      remove: () => {
        const index = this.#templates.indexOf(entry);
        if (index >= 0) {
          this.#templates.splice(index, 1);
          this.#changed();
        }
      },
    };
  }

  /**
   * Fixed resources and those enumerated by templates with a `list` callback: `direct-first` (the default) lists
   * every fixed resource, then each template's; `registration` puts each template's where it was registered.
   */
  async list(context: HandlerContext, order: ResourceListOrder = 'direct-first'): Promise<ResourceDefinition[]> {
    const listed: Array<{ seq: number; items: readonly ResourceDefinition[] }> = [];
    for (const entry of this.#templates) {
      if (entry.options.list) listed.push({ seq: entry.seq, items: await entry.options.list(context) });
    }
    const out: ResourceDefinition[] = [];
    let next = 0;
    for (const entry of this.#fixed.values()) {
      if (order === 'registration') while (next < listed.length && listed[next]!.seq < entry.seq) out.push(...listed[next++]!.items);
      out.push(entry.definition);
    }
    while (next < listed.length) out.push(...listed[next++]!.items);
    return out;
  }

  /** The hint of `resources/list`: the server's, combined with every listing template's `listCache`. */
  listHint(base: CacheHint): CacheHint {
    return combinedHint(
      base,
      this.#templates.map((entry) => (entry.options.list ? entry.options.listCache : undefined)),
    );
  }

  /** Template definitions in registration order. */
  listTemplates(): ResourceTemplateDefinition[] {
    return this.#templates.map((entry) => entry.definition);
  }

  /** True when `uri` names a fixed resource or matches a template. */
  exists(uri: string): boolean {
    return this.#fixed.has(uri) || this.#templates.some((entry) => entry.template.match(uri) !== undefined);
  }

  /**
   * Reads `uri` for a `resources/read` of the era of `context`: 2026-07-28 results carry the resource's hint (or
   * the reader's own), legacy ones none. Throws ResourceNotFoundError when nothing serves it.
   */
  read(params: Record<string, unknown> | undefined, context: HandlerContext): Outcome<ReadResourceResult> {
    const uri = params?.uri;
    if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
    const era = context.era;
    return this.#read(uri, context, (result, cache) => hintedRead(result, cache, era));
  }

  /** Reads `uri` for a handler of this server (no hints: the result is content to embed or inspect). */
  readForHandler(uri: string, context: HandlerContext): Outcome<ReadResourceResult> {
    return this.#read(uri, context, withoutHint);
  }

  #read(
    uri: string,
    context: HandlerContext,
    finish: (result: ReadResourceResult, cache: CacheHint | undefined) => ReadResourceResult,
  ): Outcome<ReadResourceResult> {
    const fixed = this.#fixed.get(uri);
    if (fixed) {
      const cache = fixed.cache;
      return apply(fixed.read(uri, context), (result) => finish(result, cache));
    }
    for (const entry of this.#templates) {
      const variables = entry.template.match(uri);
      if (variables) {
        const cache = entry.options.cache;
        const parse = entry.parseVariables;
        if (parse === undefined) return apply(entry.read(uri, variables as never, context), (result) => finish(result, cache));
        const parsed = parse(variables);
        const run = (outcome: Awaited<typeof parsed>): Outcome<ReadResourceResult> => {
          if (!outcome.valid) {
            throw invalidParams(
              `Invalid params: the variables of ${quoteInput(uri)} do not fit its template: ${outcome.errors.join('; ')}`,
            );
          }
          return apply(entry.read(uri, outcome.value as never, context), (result) => finish(result, cache));
        };
        return parsed instanceof Promise ? parsed.then(run) : run(parsed);
      }
    }
    throw new ResourceNotFoundError(uri);
  }

  /** The completion provider for variable `name` of the template whose text is `uriTemplate`. */
  completer(uriTemplate: string, name: string): CompletionProvider | undefined | null {
    const entry = this.#templates.find((t) => t.definition.uriTemplate === uriTemplate);
    if (!entry) return this.#fixed.has(uriTemplate) ? undefined : null;
    return entry.options.complete?.[name];
  }

  /** True when any template offers completion. */
  get hasCompletions(): boolean {
    return this.#templates.some((entry) => entry.options.complete && Object.keys(entry.options.complete).length > 0);
  }
}
