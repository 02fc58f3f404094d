/**
 * Tool names as each LLM API allows them, and back. The host's namespaced names (`github.create_issue`) may contain
 * characters an API refuses (`.`), or be too long; each is rewritten — invalid characters to `_`, an over-long name
 * cut and given a short hash of the whole name — and made unique (`_2`, `_3`…). The {@link ToolNameMap} turns the
 * name a model calls back into the host's name. Same tools in, same names out.
 */

/** An API's rule for function names. */
export interface NameRule {
  /** Characters allowed anywhere. */
  readonly allowed: RegExp;
  /** Characters allowed first (default: as `allowed`). */
  readonly first?: RegExp;
  readonly maxLength: number;
}

/** Anthropic Messages and OpenAI (Chat Completions, Responses): `^[a-zA-Z0-9_-]{1,64}$`. */
export const ALPHANUMERIC_64: NameRule = { allowed: /[a-zA-Z0-9_-]/, maxLength: 64 };

/** Gemini: starts with a letter or `_`, then letters, digits, `_` or `-`; at most 63 characters (the stricter of its documented limits). */
export const GEMINI_NAMES: NameRule = { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z_]/, maxLength: 63 };

/** The names given to a set of tools, both ways. */
export class ToolNameMap {
  readonly #toApi = new Map<string, string>();
  readonly #toHost = new Map<string, string>();

  /** Adds a pair (used by {@link assignNames}). */
  set(hostName: string, apiName: string): void {
    this.#toApi.set(hostName, apiName);
    this.#toHost.set(apiName, hostName);
  }

  /** The API name of a host tool. */
  apiName(hostName: string): string | undefined {
    return this.#toApi.get(hostName);
  }

  /** The host name of the tool a model called, or `undefined` for a name no declaration had. */
  hostName(apiName: string): string | undefined {
    return this.#toHost.get(apiName);
  }

  /** Every pair, host name → API name. */
  entries(): Array<[string, string]> {
    return [...this.#toApi.entries()];
  }
}

/** FNV-1a, 32 bits, as 8 hex digits: short, stable, enough to tell apart names that share a long prefix. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** One name under a rule (not yet unique). */
export function sanitizeName(name: string, rule: NameRule): string {
  let out = [...name].map((c) => (rule.allowed.test(c) ? c : '_')).join('');
  if (out === '') out = '_';
  if (rule.first && !rule.first.test(out.charAt(0))) out = `_${out}`;
  if (out.length > rule.maxLength) out = `${out.slice(0, rule.maxLength - 9)}_${hash(name)}`;
  return out;
}

/** Names for `hostNames` (in this order) under `rule`, unique. */
export function assignNames(hostNames: readonly string[], rule: NameRule): ToolNameMap {
  const map = new ToolNameMap();
  const wanted = hostNames.map((name) => sanitizeName(name, rule));
  const taken = new Set<string>();
  const plain = new Set(wanted);
  hostNames.forEach((hostName, index) => {
    let name = wanted[index]!;
    if (taken.has(name)) {
      for (let n = 2; ; n++) {
        const suffix = `_${n}`;
        const candidate = `${name.slice(0, rule.maxLength - suffix.length)}${suffix}`;
        if (!taken.has(candidate) && !plain.has(candidate)) {
          name = candidate;
          break;
        }
      }
    }
    taken.add(name);
    map.set(hostName, name);
  });
  return map;
}
