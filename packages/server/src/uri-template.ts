/**
 * RFC 6570 URI templates, in both directions: `expand` (variables → URI) and `match` (URI → variables), as
 * resource templates need. Supports every operator of levels 1–4 (`{var}`, `{+var}`, `{#var}`, `{.var}`,
 * `{/var}`, `{;var}`, `{?var}`, `{&var}`), value lists, the explode modifier and prefix modifiers (`{var:3}`,
 * expansion only). Associative-array values (level 4 `keys`) are not supported.
 *
 * Matching reads back what expansion wrote wherever the URI says it unambiguously (`match(expand(v))` gives `v`
 * back; the property tests pin this per operator): values are split on the literal separators first and decoded
 * afterwards, so a percent-encoded separator is data. It cannot where RFC 6570 itself loses information: an
 * undefined variable and an empty one look alike where no `name=` marks them, a one-item list looks like a string,
 * and reserved expansion (`+`, `#`) keeps commas, `?`, `#` and `%XX` as they are.
 */

interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
}

interface Expression {
  readonly operator: string;
  readonly variables: readonly VariableSpec[];
}

type Part = string | Expression;

interface OperatorRule {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly allowReserved: boolean;
}

const RULES: Record<string, OperatorRule> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
};

/** A template that does not follow RFC 6570. */
export class UriTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UriTemplateError';
  }
}

/** Values a template can be expanded with. */
export type TemplateValues = Record<string, string | readonly string[] | undefined>;

function encode(value: string, allowReserved: boolean): string {
  try {
    if (allowReserved) {
      // Keep reserved characters and existing percent-escapes; encode the rest.
      return value.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c));
    }
    return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    // encodeURIComponent throws for a lone surrogate, which no URI can carry.
    throw new UriTemplateError('A template value contains a lone UTF-16 surrogate, which cannot be put in a URI');
  }
}

/** The first `length` characters (code points, as RFC 6570 counts them, never half of a surrogate pair). */
function prefixOf(value: string, length: number): string {
  let end = 0;
  for (let count = 0; count < length && end < value.length; count++) {
    const code = value.codePointAt(end)!;
    end += code > 0xffff ? 2 : 1;
  }
  return value.slice(0, end);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A parsed RFC 6570 template. */
export class UriTemplate {
  /** The template text. */
  readonly template: string;
  /** The names of its variables, in order of appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  #regex: RegExp | undefined;

  constructor(template: string) {
    if (template.length > 4096) throw new UriTemplateError('URI template is longer than 4096 characters');
    this.template = template;
    const parts: Part[] = [];
    const names: string[] = [];
    let index = 0;
    while (index < template.length) {
      const open = template.indexOf('{', index);
      if (open === -1) {
        parts.push(template.slice(index));
        break;
      }
      if (open > index) parts.push(template.slice(index, open));
      const close = template.indexOf('}', open);
      if (close === -1) throw new UriTemplateError(`Unclosed expression in URI template '${template}'`);
      let body = template.slice(open + 1, close);
      let operator = '';
      if (body.length > 0 && '+#./;?&'.includes(body[0]!)) {
        operator = body[0]!;
        body = body.slice(1);
      }
      if (body.length === 0) throw new UriTemplateError(`Empty expression in URI template '${template}'`);
      const variables = body.split(',').map((spec): VariableSpec => {
        const match = /^([A-Za-z0-9_.%]+)(\*|:([1-9][0-9]{0,3}))?$/.exec(spec);
        if (!match) throw new UriTemplateError(`Invalid variable '${spec}' in URI template '${template}'`);
        names.push(match[1]!);
        return { name: match[1]!, explode: match[2] === '*', prefix: match[3] ? Number(match[3]) : undefined };
      });
      parts.push({ operator, variables });
      index = close + 1;
    }
    this.#parts = parts;
    this.variableNames = names;
  }

  /** Expands the template. Undefined variables are omitted, as RFC 6570 says. */
  expand(values: TemplateValues): string {
    let out = '';
    for (const part of this.#parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const rule = RULES[part.operator]!;
      const pieces: string[] = [];
      for (const variable of part.variables) {
        const value = values[variable.name];
        if (value === undefined) continue;
        if (typeof value === 'string') {
          const text = encode(variable.prefix ? prefixOf(value, variable.prefix) : value, rule.allowReserved);
          pieces.push(rule.named ? (text === '' ? `${variable.name}${rule.ifEmpty}` : `${variable.name}=${text}`) : text);
        } else if (value.length > 0) {
          const items = value.map((item) => encode(item, rule.allowReserved));
          if (variable.explode) {
            pieces.push(rule.named ? items.map((item) => `${variable.name}=${item}`).join(rule.separator) : items.join(rule.separator));
          } else {
            pieces.push(rule.named ? `${variable.name}=${items.join(',')}` : items.join(','));
          }
        }
      }
      if (pieces.length > 0) out += rule.first + pieces.join(rule.separator);
    }
    return out;
  }

  /**
   * Matches a URI against the template and returns the decoded variables, or `undefined` when it does not match.
   *
   * Values are split before they are decoded, so a percent-encoded separator is data: `{?q}` matches `?q=a%2Cb` as
   * the string `"a,b"` and `?q=a,b` as the list `["a", "b"]`. An exploded variable is always a list; any other
   * variable is a string, or a list when its value holds literal commas where a string's commas would have been
   * encoded (every operator but `+` and `#`, which keep commas as they are, and not between the variables of a
   * multi-variable `{x,y}`). A one-item list expands like a string and so comes back as one. Query-style
   * parameters (`{?…}`, `{&…}`, `{;…}`) may come in any order and unknown ones are ignored.
   */
  match(uri: string): Record<string, string | string[]> | undefined {
    const regex = (this.#regex ??= this.#compile());
    const found = regex.exec(uri);
    if (!found) return undefined;
    const result: Record<string, string | string[]> = {};
    // Named expressions of one kind (`?`/`&`, or `;`) share their pairs: a greedy first group may hold them all.
    const pools = new Map<string, string[]>();
    let group = 1;
    for (const part of this.#parts) {
      if (typeof part === 'string') continue;
      const rule = RULES[part.operator]!;
      if (rule.named) {
        const text = found[group++] ?? '';
        const family = part.operator === ';' ? ';' : '&';
        const pool = pools.get(family) ?? [];
        if (text !== '') pool.push(...text.slice(1).split(rule.separator));
        pools.set(family, pool);
        continue;
      }
      const splitsLists = part.operator !== '+' && part.operator !== '#';
      for (const variable of part.variables) {
        const text = found[group++];
        if (text === undefined) continue;
        if (variable.explode) {
          // The reserved operators' groups hold the value without its lead; the others' hold every `lead item`.
          const items = part.operator === '' || rule.allowReserved ? text : text.slice(rule.first.length);
          result[variable.name] = text === '' ? [] : items.split(rule.separator).map(safeDecode);
        } else {
          result[variable.name] = splitsLists ? listOrString(text) : safeDecode(text);
        }
      }
    }
    if (pools.size > 0) this.#assignNamed(pools, result);
    return result;
  }

  #assignNamed(pools: ReadonlyMap<string, readonly string[]>, result: Record<string, string | string[]>): void {
    for (const part of this.#parts) {
      if (typeof part === 'string' || !RULES[part.operator]!.named) continue;
      const pairs = pools.get(part.operator === ';' ? ';' : '&')!;
      for (const variable of part.variables) {
        const raw = pairs
          .filter((pair) => pair === variable.name || pair.startsWith(`${variable.name}=`))
          .map((pair) => pair.slice(variable.name.length + 1));
        if (raw.length === 0) continue;
        if (variable.explode || raw.length > 1) result[variable.name] = raw.flatMap((value) => value.split(',')).map(safeDecode);
        else result[variable.name] = listOrString(raw[0]!);
      }
    }
  }

  #compile(): RegExp {
    let source = '^';
    for (const part of this.#parts) {
      if (typeof part === 'string') {
        source += escapeRegex(part);
        continue;
      }
      const rule = RULES[part.operator]!;
      if (rule.named) {
        const stop = part.operator === ';' ? '/?#' : '#';
        source += `(${escapeRegex(rule.first)}[^${stop}]*)?`;
        continue;
      }
      part.variables.forEach((variable, i) => {
        const lead = i === 0 ? escapeRegex(rule.first) : escapeRegex(rule.separator);
        // A value is optional when others share its expression; never behind an empty lead (JavaScript drops an
        // optional group that matched nothing, so an empty first value would read as absent).
        const single = part.variables.length === 1 || lead === '';
        if (rule.allowReserved) {
          // Reserved characters stand for themselves, so a value may hold anything: take as little as lets the rest match.
          const any = '[\\s\\S]*?';
          source += variable.explode && part.operator === '+' ? `(${any})` : `(?:${lead}(${any}))${single ? '' : '?'}`;
          return;
        }
        const valueClass = variable.explode || part.variables.length > 1 ? VALUE_CLASS[part.operator]! : '[^/?#]';
        if (variable.explode) {
          source +=
            part.operator === '' ? `(${valueClass}*(?:${escapeRegex(rule.separator)}${valueClass}*)*)` : `((?:${lead}${valueClass}*)*)`;
        } else {
          source += `(?:${lead}(${valueClass}*))${single ? '' : '?'}`;
        }
      });
    }
    return new RegExp(`${source}$`, 'u');
  }
}

/**
 * What one value of a non-reserved, unnamed operator may hold where values sit side by side (several variables,
 * or the items of an exploded one): anything but the URI delimiters and the expression's separator.
 */
const VALUE_CLASS: Record<string, string> = { '': '[^/?#,]', '.': '[^/?#.]', '/': '[^/?#]', ';': '[^/?#;]' };

/** A raw value split on literal commas (list items) before decoding; one item is a string. */
function listOrString(raw: string): string | string[] {
  return raw.includes(',') ? raw.split(',').map(safeDecode) : safeDecode(raw);
}

/** True when `text` contains an RFC 6570 expression (and so names a template, not a fixed URI). */
export function isUriTemplate(text: string): boolean {
  return /\{[^}]+\}/.test(text);
}
