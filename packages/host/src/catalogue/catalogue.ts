/**
 * One catalogue of every connected server's tools, prompts, resources and resource templates: tools and prompts under
 * namespaced names (see `qualified-names.ts`), each server's allow/deny lists applied, resources under their own
 * URIs (a URI is already global; the entry says which server offers it). Views are rebuilt when a server's lists
 * change, and are the same whatever order the servers answered in.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@wiremcp/client';
import type { NameFilter } from '../config/types.js';
import { namePredicate, type NamePredicate } from './name-filter.js';
import { qualifyNames } from './qualified-names.js';

/** The four lists a server can offer. */
export type CatalogueKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** A tool in the catalogue. */
export interface HostTool {
  /** The namespaced name (`server.tool`): what `callTool` takes. */
  readonly name: string;
  readonly server: string;
  /** The tool as its server lists it (its own `name`, schemas, annotations). */
  readonly tool: Tool;
}

/** A prompt in the catalogue. */
export interface HostPrompt {
  readonly name: string;
  readonly server: string;
  readonly prompt: Prompt;
}

/** A resource in the catalogue (its URI unchanged). */
export interface HostResource {
  readonly server: string;
  readonly resource: Resource;
}

/** A resource template in the catalogue. */
export interface HostResourceTemplate {
  readonly server: string;
  readonly template: ResourceTemplate;
}

/** Filters per kind for one server (resources' filter applies to URIs and template URIs). */
export interface ServerFilters {
  readonly tools?: NameFilter;
  readonly prompts?: NameFilter;
  readonly resources?: NameFilter;
}

interface ServerLists {
  readonly order: number;
  readonly allowTool: NamePredicate;
  readonly allowPrompt: NamePredicate;
  readonly allowResource: NamePredicate;
  tools: readonly Tool[];
  prompts: readonly Prompt[];
  resources: readonly Resource[];
  resourceTemplates: readonly ResourceTemplate[];
}

interface Views {
  readonly tools: readonly HostTool[];
  readonly toolsByName: ReadonlyMap<string, HostTool>;
  readonly prompts: readonly HostPrompt[];
  readonly promptsByName: ReadonlyMap<string, HostPrompt>;
  readonly resources: readonly HostResource[];
  readonly resourceTemplates: readonly HostResourceTemplate[];
}

/** See the module comment. Reads are cheap: views are cached until a list changes. */
export class Catalogue {
  readonly separator: string;
  readonly #servers = new Map<string, ServerLists>();
  #views: Views | undefined;

  constructor(separator: string) {
    if (typeof separator !== 'string' || separator === '') throw new RangeError('the namespace separator must be a non-empty string');
    this.separator = separator;
  }

  /** Declares a server (its position in the configuration and its filters) before it lists anything. */
  addServer(server: string, order: number, filters: ServerFilters = {}): void {
    this.#servers.set(server, {
      order,
      allowTool: namePredicate(filters.tools),
      allowPrompt: namePredicate(filters.prompts),
      allowResource: namePredicate(filters.resources),
      tools: [],
      prompts: [],
      resources: [],
      resourceTemplates: [],
    });
    this.#views = undefined;
  }

  /** Replaces one list of a server. */
  set(server: string, kind: 'tools', items: readonly Tool[]): void;
  set(server: string, kind: 'prompts', items: readonly Prompt[]): void;
  set(server: string, kind: 'resources', items: readonly Resource[]): void;
  set(server: string, kind: 'resourceTemplates', items: readonly ResourceTemplate[]): void;
  set(
    server: string,
    kind: CatalogueKind,
    items: readonly Tool[] | readonly Prompt[] | readonly Resource[] | readonly ResourceTemplate[],
  ): void {
    const lists = this.#servers.get(server);
    if (lists === undefined) return;
    (lists as unknown as Record<CatalogueKind, unknown>)[kind] = items;
    this.#views = undefined;
  }

  /** Empties every list of a server (it disconnected). */
  clear(server: string): void {
    const lists = this.#servers.get(server);
    if (lists === undefined) return;
    lists.tools = lists.prompts = lists.resources = lists.resourceTemplates = [];
    this.#views = undefined;
  }

  /** Every tool, in configuration order, then by name. */
  tools(): readonly HostTool[] {
    return this.#build().tools;
  }

  /** The tool of a namespaced name. */
  tool(name: string): HostTool | undefined {
    return this.#build().toolsByName.get(name);
  }

  /** Every prompt, in configuration order, then by name. */
  prompts(): readonly HostPrompt[] {
    return this.#build().prompts;
  }

  /** The prompt of a namespaced name. */
  prompt(name: string): HostPrompt | undefined {
    return this.#build().promptsByName.get(name);
  }

  /** Every resource. */
  resources(): readonly HostResource[] {
    return this.#build().resources;
  }

  /** Every resource template. */
  resourceTemplates(): readonly HostResourceTemplate[] {
    return this.#build().resourceTemplates;
  }

  /**
   * The servers that may serve `uri`: those listing it, else those with a template it fits. Filtered-out resources and
   * templates count for nothing.
   */
  serversForUri(uri: string): string[] {
    const views = this.#build();
    const listed = new Set(views.resources.filter((r) => r.resource.uri === uri).map((r) => r.server));
    if (listed.size > 0) return [...listed];
    return [...new Set(views.resourceTemplates.filter((t) => templateMatches(t.template.uriTemplate, uri)).map((t) => t.server))];
  }

  /** Whether a server's filters let `uri` through (for reads of URIs no list mentions). */
  allowsUri(server: string, uri: string): boolean {
    return this.#servers.get(server)?.allowResource(uri) ?? false;
  }

  #build(): Views {
    if (this.#views) return this.#views;
    const servers = [...this.#servers.entries()].sort((a, b) => a[1].order - b[1].order);
    const toolEntries = servers.flatMap(([server, lists]) =>
      lists.tools.filter((tool) => lists.allowTool(tool.name)).map((tool) => ({ server, order: lists.order, tool })),
    );
    const promptEntries = servers.flatMap(([server, lists]) =>
      lists.prompts.filter((prompt) => lists.allowPrompt(prompt.name)).map((prompt) => ({ server, order: lists.order, prompt })),
    );
    const toolNames = qualifyNames(
      toolEntries.map((e) => ({ order: e.order, server: e.server, name: e.tool.name })),
      this.separator,
    );
    const promptNames = qualifyNames(
      promptEntries.map((e) => ({ order: e.order, server: e.server, name: e.prompt.name })),
      this.separator,
    );
    const tools = sortByName(
      toolEntries.map((e, i) => ({ name: toolNames[i]!, server: e.server, tool: e.tool })),
      toolEntries,
    );
    const prompts = sortByName(
      promptEntries.map((e, i) => ({ name: promptNames[i]!, server: e.server, prompt: e.prompt })),
      promptEntries,
    );
    this.#views = {
      tools,
      toolsByName: new Map(tools.map((t) => [t.name, t])),
      prompts,
      promptsByName: new Map(prompts.map((p) => [p.name, p])),
      resources: servers.flatMap(([server, lists]) =>
        lists.resources.filter((resource) => lists.allowResource(resource.uri)).map((resource) => ({ server, resource })),
      ),
      resourceTemplates: servers.flatMap(([server, lists]) =>
        lists.resourceTemplates.filter((template) => lists.allowResource(template.uriTemplate)).map((template) => ({ server, template })),
      ),
    };
    return this.#views;
  }
}

/** Sorts named entries by their server's order, then by name (entries and `sources` share indexes). */
function sortByName<T extends { name: string }>(items: T[], sources: ReadonlyArray<{ order: number }>): T[] {
  return items
    .map((item, index) => ({ item, order: sources[index]!.order }))
    .sort((a, b) => a.order - b.order || (a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0))
    .map(({ item }) => item);
}

/**
 * Whether `uri` fits an RFC 6570 template, loosely: literal text must match, `{var}` matches one path segment, and
 * `{+var}`, `{#var}`, `{/var}`, `{?…}`, `{&…}` match anything (their expansions may contain slashes).
 */
export function templateMatches(template: string, uri: string): boolean {
  let pattern = '';
  let index = 0;
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    pattern += escape(template.slice(index, match.index));
    const operator = match[1]!.charAt(0);
    pattern += operator === '' || /[A-Za-z0-9_%]/.test(operator) || operator === '.' || operator === ';' ? '[^/?#]*' : '.*';
    index = match.index + match[0].length;
  }
  pattern += escape(template.slice(index));
  return new RegExp(`^${pattern}$`, 's').test(uri);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
