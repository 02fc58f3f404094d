/**
 * Which scopes an MCP operation needs. The transport knows the JSON-RPC method and, for `tools/call`,
 * `prompts/get` and `resources/read`, the name or URI (from `Mcp-Method`/`Mcp-Name` or from the body), and asks the
 * policy before dispatching.
 */

/** A list of scopes, all of which are required. */
export type ScopeList = readonly string[];

/**
 * Declarative scope requirements. The scopes of an operation are `always` plus the entry for its method plus the
 * entry for its tool, prompt or resource. Resource keys ending in `*` match by prefix.
 */
export interface ScopePolicyConfig {
  /** Required for every request. */
  readonly always?: ScopeList;
  /** Per JSON-RPC method (e.g. `'tools/list': ['mcp:read']`). */
  readonly methods?: Readonly<Record<string, ScopeList>>;
  /** Per tool name, for `tools/call`. */
  readonly tools?: Readonly<Record<string, ScopeList>>;
  /** Per prompt name, for `prompts/get`. */
  readonly prompts?: Readonly<Record<string, ScopeList>>;
  /** Per resource URI (or `prefix*`), for `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
  readonly resources?: Readonly<Record<string, ScopeList>>;
  /** Scope hierarchy: a scope implies the listed ones (e.g. `'files:write': ['files:read']`). */
  readonly implies?: Readonly<Record<string, ScopeList>>;
}

/** Evaluates a {@link ScopePolicyConfig}. */
export class ScopePolicy {
  readonly #config: ScopePolicyConfig;

  constructor(config: ScopePolicyConfig = {}) {
    this.#config = config;
  }

  /** Scopes needed when nothing is known about the operation (used in the challenge of an unauthenticated request). */
  baseline(): string[] {
    return [...new Set(this.#config.always ?? [])];
  }

  /** All scopes `method` (on `name`, the tool/prompt name or resource URI) requires. */
  required(method: string | undefined, name: string | undefined): string[] {
    const out = new Set(this.#config.always ?? []);
    if (method !== undefined) {
      for (const scope of this.#config.methods?.[method] ?? []) out.add(scope);
      for (const scope of this.#forName(method, name)) out.add(scope);
    }
    return [...out];
  }

  #forName(method: string, name: string | undefined): ScopeList {
    if (name === undefined) return [];
    const own = (table: Readonly<Record<string, ScopeList>> | undefined): ScopeList =>
      table && Object.prototype.hasOwnProperty.call(table, name) ? table[name]! : [];
    switch (method) {
      case 'tools/call':
        return own(this.#config.tools);
      case 'prompts/get':
        return own(this.#config.prompts);
      case 'resources/read':
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const table = this.#config.resources;
        if (!table) return [];
        const exact = own(table);
        if (exact.length > 0) return exact;
        const prefix = Object.keys(table)
          .filter((key) => key.endsWith('*') && name.startsWith(key.slice(0, -1)))
          .sort((a, b) => b.length - a.length)[0];
        return prefix ? table[prefix]! : [];
      }
      default:
        return [];
    }
  }

  /** The granted scopes with everything they imply (transitively). */
  expand(granted: readonly string[]): Set<string> {
    const out = new Set(granted);
    const queue = [...granted];
    while (queue.length > 0) {
      const scope = queue.pop()!;
      for (const implied of this.#config.implies?.[scope] ?? []) {
        if (!out.has(implied)) {
          out.add(implied);
          queue.push(implied);
        }
      }
    }
    return out;
  }

  /** The required scopes that `granted` (with the hierarchy) does not cover; empty when the operation is allowed. */
  missing(granted: readonly string[], method: string | undefined, name: string | undefined): string[] {
    const have = this.expand(granted);
    return this.required(method, name).filter((scope) => !have.has(scope));
  }
}
