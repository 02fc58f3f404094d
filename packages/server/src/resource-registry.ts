import { ErrorCode, invalidParams, LocalError, RpcError, truncateInput } from '@wiremcp/protocol';
import type { HandlerContext } from './handler-context.js';
import { UriTemplate } from './uri-template.js';
import type { CompletionProvider, ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition } from './types.js';

/** Reads a fixed resource. */
export type ResourceReader = (uri: string, context: HandlerContext) => ReadResourceResult | Promise<ReadResourceResult>;

/** Reads a resource matched by a template; `variables` are the decoded template variables. */
export type TemplateReader = (
  uri: string,
  variables: Record<string, string | string[]>,
  context: HandlerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** Options of a resource template registration. */
export interface TemplateOptions {
  /** Completion of template variables, by variable name. */
  complete?: Record<string, CompletionProvider>;
  /** Enumerates concrete resources of this template for `resources/list`. */
  list?: () => ResourceDefinition[] | Promise<ResourceDefinition[]>;
}

/** Handle of a registered resource or template. */
export interface RegisteredResource {
  remove(): void;
}

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

interface TemplateEntry {
  definition: ResourceTemplateDefinition;
  template: UriTemplate;
  read: TemplateReader;
  options: TemplateOptions;
}

/** Fixed resources and RFC 6570 templates. */
export class ResourceRegistry {
  readonly #fixed = new Map<string, { definition: ResourceDefinition; read: ResourceReader }>();
  readonly #templates: TemplateEntry[] = [];
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** Number of fixed resources plus templates. */
  get size(): number {
    return this.#fixed.size + this.#templates.length;
  }

  /** Adds a fixed resource; throws `INVALID_ARGUMENT` for a duplicate URI. */
  register(definition: ResourceDefinition, read: ResourceReader): RegisteredResource {
    if (typeof definition.uri !== 'string' || definition.uri.length === 0)
      throw new LocalError('INVALID_ARGUMENT', 'A resource needs a uri');
    if (this.#fixed.has(definition.uri)) throw new LocalError('INVALID_ARGUMENT', `Resource '${definition.uri}' is already registered`);
    const entry = { definition, read };
    this.#fixed.set(definition.uri, entry);
    this.#changed();
    return {
      remove: () => {
        if (this.#fixed.get(definition.uri) === entry) {
          this.#fixed.delete(definition.uri);
          this.#changed();
        }
      },
    };
  }

  /** Adds a template; throws a UriTemplateError for an invalid one. */
  registerTemplate(definition: ResourceTemplateDefinition, read: TemplateReader, options: TemplateOptions = {}): RegisteredResource {
    const entry: TemplateEntry = { definition, template: new UriTemplate(definition.uriTemplate), read, options };
    this.#templates.push(entry);
    this.#changed();
    return {
      remove: () => {
        const index = this.#templates.indexOf(entry);
        if (index >= 0) {
          this.#templates.splice(index, 1);
          this.#changed();
        }
      },
    };
  }

  /** Fixed resources, then those enumerated by templates with a `list` callback. */
  async list(): Promise<ResourceDefinition[]> {
    const out = [...this.#fixed.values()].map((entry) => entry.definition);
    for (const entry of this.#templates) {
      if (entry.options.list) out.push(...(await entry.options.list()));
    }
    return out;
  }

  /** Template definitions in registration order. */
  listTemplates(): ResourceTemplateDefinition[] {
    return this.#templates.map((entry) => entry.definition);
  }

  /** True when `uri` names a fixed resource or matches a template. */
  exists(uri: string): boolean {
    return this.#fixed.has(uri) || this.#templates.some((entry) => entry.template.match(uri) !== undefined);
  }

  /** Reads `uri`; throws ResourceNotFoundError when nothing serves it. */
  read(params: Record<string, unknown> | undefined, context: HandlerContext): ReadResourceResult | Promise<ReadResourceResult> {
    const uri = params?.uri;
    if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
    const fixed = this.#fixed.get(uri);
    if (fixed) return fixed.read(uri, context);
    for (const entry of this.#templates) {
      const variables = entry.template.match(uri);
      if (variables) return entry.read(uri, variables, context);
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
