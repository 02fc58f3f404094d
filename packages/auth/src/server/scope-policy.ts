/**
 * Which scopes an MCP operation needs. The transport reads the operation from the validated body: its JSON-RPC method
 * and what it acts on (`requestTargets` of `@wiremcp/protocol`: the tool, the prompt, the resource URIs, the resource
 * template a completion refers to), and asks the policy before dispatching.
 */
import { targetOfName, type RequestTarget } from '@wiremcp/protocol';

/** A list of scopes, all of which are required. */
export type ScopeList = readonly string[];

/**
 * Declarative scope requirements. The scopes of an operation are `always` plus the entry for its method plus the
 * entries for what it acts on (its tool, prompt or resources). Resource keys ending in `*` match by prefix.
 */
export interface ScopePolicyConfig {
  /** Required for every request. */
  readonly always?: ScopeList;
  /** Per JSON-RPC method (e.g. `'tools/list': ['mcp:read']`). */
  readonly methods?: Readonly<Record<string, ScopeList>>;
  /** Per tool name, for `tools/call` (and the follow-ups of a task it created). */
  readonly tools?: Readonly<Record<string, ScopeList>>;
  /** Per prompt name, for `prompts/get` and the completion of its arguments. */
  readonly prompts?: Readonly<Record<string, ScopeList>>;
  /**
   * Per resource URI (or `prefix*`), for `resources/read`, `resources/subscribe`, `resources/unsubscribe`, the
   * resources a `subscriptions/listen` stream subscribes to, and the completion of a resource template's arguments
   * (which needs the scopes of every entry a URI of the template could match). URIs are compared in a normal form
   * (`..` segments resolved, percent-encoded unreserved characters decoded), so another spelling of a URI cannot
   * slip past its entry, and in every way a server may read them (as sent, resolved, fully decoded:
   * {@link resourceUriReadings}), the scopes of each reading required.
   */
  readonly resources?: Readonly<Record<string, ScopeList>>;
  /** Scope hierarchy: a scope implies the listed ones (e.g. `'files:write': ['files:read']`). */
  readonly implies?: Readonly<Record<string, ScopeList>>;
}

const NO_SCOPES: ScopeList = [];
const ESCAPE = /%[0-9A-Fa-f]{2}/g;
/** Escapes of RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`. */
const UNRESERVED = /^%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])$/;

/** Percent-encoded unreserved characters decoded, every other escape upper-cased. */
function normalizeEscapes(text: string): string {
  return text.indexOf('%') === -1
    ? text
    : text.replace(ESCAPE, (escape) =>
        UNRESERVED.test(escape) ? String.fromCharCode(parseInt(escape.slice(1), 16)) : escape.toUpperCase(),
      );
}

/**
 * The form resource URIs are compared in (RFC 3986 §6.2.2): percent-encoded unreserved characters decoded, then what
 * the URL parser makes of it (lower-case scheme, `.` and `..` segments resolved), other escapes upper-cased. Text
 * the parser refuses is compared with only its escapes normalized.
 */
export function normalizeResourceUri(uri: string): string {
  const decoded = normalizeEscapes(uri);
  try {
    return normalizeEscapes(new URL(decoded).href);
  } catch {
    return decoded;
  }
}

/** Every escape decoded, `%2F` included; `undefined` when the escapes are not valid UTF-8. */
function decodeAll(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The ways a server may read a requested resource URI, each in the normal form the policy's keys are in: as sent
 * (escapes normalized only: a registry or template compares text), resolved ({@link normalizeResourceUri}: dot
 * segments, as a URL-based reader sees it), and with every escape decoded, `%2F` too (a template's matched value,
 * a path built from it), as sent and resolved. The policy cannot know which reading the server's handler makes, so an
 * operation needs the scopes of all of them: a URI that one reading puts under a protected prefix is protected.
 */
export function resourceUriReadings(uri: string): string[] {
  const literal = normalizeEscapes(uri);
  const readings = new Set([literal, normalizeResourceUri(uri)]);
  const decoded = literal.indexOf('%') === -1 ? undefined : decodeAll(literal);
  if (decoded !== undefined) {
    readings.add(decoded);
    readings.add(normalizeResourceUri(decoded));
  }
  return [...readings];
}

/** Evaluates a {@link ScopePolicyConfig}. */
export class ScopePolicy {
  readonly #config: ScopePolicyConfig;
  /** The resource entries in their normal form: exact ones by URI, prefixes longest first. */
  readonly #exact = new Map<string, ScopeList>();
  readonly #prefixes: { readonly prefix: string; readonly raw: string; readonly scopes: ScopeList }[] = [];

  constructor(config: ScopePolicyConfig = {}) {
    this.#config = config;
    for (const [key, scopes] of Object.entries(config.resources ?? {})) {
      if (key.endsWith('*')) this.#prefixes.push({ prefix: normalizeResourceUri(key.slice(0, -1)), raw: key.slice(0, -1), scopes });
      else this.#exact.set(normalizeResourceUri(key), [...(this.#exact.get(normalizeResourceUri(key)) ?? []), ...scopes]);
    }
    this.#prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Scopes needed when nothing is known about the operation (used in the challenge of an unauthenticated request). */
  baseline(): string[] {
    return [...new Set(this.#config.always ?? [])];
  }

  /**
   * All scopes `method` requires when it names `name` (a tool or prompt name, or a resource URI, as the method's
   * named field in `@wiremcp/protocol`'s table says).
   */
  required(method: string | undefined, name: string | undefined): string[] {
    const target = method === undefined || name === undefined ? undefined : targetOfName(method, name);
    return this.requiredFor(method, target === undefined ? undefined : [target]);
  }

  /** All scopes `method` requires when it acts on `targets` (`requestTargets` of `@wiremcp/protocol`). */
  requiredFor(method: string | undefined, targets: readonly RequestTarget[] | undefined): string[] {
    const out = new Set(this.#config.always ?? []);
    if (method !== undefined) {
      for (const scope of own(this.#config.methods, method)) out.add(scope);
      for (const target of targets ?? []) for (const scope of this.#forTarget(target)) out.add(scope);
    }
    return [...out];
  }

  #forTarget(target: RequestTarget): ScopeList {
    switch (target.kind) {
      case 'tool':
        return own(this.#config.tools, target.name);
      case 'prompt':
        return own(this.#config.prompts, target.name);
      case 'resource': {
        const readings = resourceUriReadings(target.name);
        if (readings.length === 1) return this.#forResource(readings[0]!);
        const out = new Set<string>();
        for (const reading of readings) for (const scope of this.#forResource(reading)) out.add(scope);
        return [...out];
      }
      case 'resource-template':
        return this.#forTemplate(target.name);
      default:
        // A task's scopes are those of the operation that created it: the transport names that operation's targets.
        return NO_SCOPES;
    }
  }

  /** For one reading of a URI: an exact entry wins; else the longest matching prefix. */
  #forResource(uri: string): ScopeList {
    const exact = this.#exact.get(uri);
    if (exact !== undefined) return exact;
    for (const entry of this.#prefixes) if (uri.startsWith(entry.prefix)) return entry.scopes;
    return NO_SCOPES;
  }

  /**
   * Every entry a URI expanded from `template` could match: the template's text before its first expression is a
   * prefix of every such URI, so any entry compatible with that prefix counts (more scopes rather than fewer).
   */
  #forTemplate(template: string): ScopeList {
    const brace = template.indexOf('{');
    if (brace === -1) return this.#forResource(normalizeResourceUri(template));
    const literal = template.slice(0, brace);
    const forms = [literal, normalizeResourceUri(literal)];
    const compatible = (key: string, isPrefix: boolean): boolean =>
      forms.some((form) => key.startsWith(form) || (isPrefix && form.startsWith(key)));
    const out = new Set<string>();
    for (const [key, scopes] of this.#exact) if (compatible(key, false)) for (const scope of scopes) out.add(scope);
    for (const entry of this.#prefixes) {
      if (compatible(entry.prefix, true) || compatible(entry.raw, true)) for (const scope of entry.scopes) out.add(scope);
    }
    return [...out];
  }

  /** The granted scopes with everything they imply (transitively). */
  expand(granted: readonly string[]): Set<string> {
    const out = new Set(granted);
    const queue = [...granted];
    while (queue.length > 0) {
      const scope = queue.pop()!;
      for (const implied of own(this.#config.implies, scope)) {
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

  /** {@link missing} for an operation on `targets`. */
  missingFor(granted: readonly string[], method: string | undefined, targets: readonly RequestTarget[] | undefined): string[] {
    const have = this.expand(granted);
    return this.requiredFor(method, targets).filter((scope) => !have.has(scope));
  }
}

/** The entry `key` of `table` when the table itself holds it (never one inherited from `Object.prototype`). */
function own(table: Readonly<Record<string, ScopeList>> | undefined, key: string): ScopeList {
  return table !== undefined && Object.hasOwn(table, key) ? table[key]! : NO_SCOPES;
}
