/**
 * RFC 6570 URI templates, in both directions: `expand` (variables → URI) and `match` (URI → variables), as
 * resource templates need. Supports every operator of levels 1–4 (`{var}`, `{+var}`, `{#var}`, `{.var}`,
 * `{/var}`, `{;var}`, `{?var}`, `{&var}`), value lists, the explode modifier and prefix modifiers (`{var:3}`,
 * expansion only).
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
  if (allowReserved) {
    // Keep reserved characters and existing percent-escapes; encode the rest.
    return value.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c));
  }
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
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
          const text = encode(variable.prefix ? value.slice(0, variable.prefix) : value, rule.allowReserved);
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
   * An exploded or comma-separated value comes back as an array; every other value as a string.
   */
  match(uri: string): Record<string, string | string[]> | undefined {
    const regex = (this.#regex ??= this.#compile());
    const found = regex.exec(uri);
    if (!found) return undefined;
    const result: Record<string, string | string[]> = {};
    let group = 1;
    for (const part of this.#parts) {
      if (typeof part === 'string') continue;
      const rule = RULES[part.operator]!;
      if (rule.named && (part.operator === '?' || part.operator === '&' || part.operator === ';')) {
        const text = found[group++] ?? '';
        const pairs = text === '' ? [] : text.slice(1).split(rule.separator);
        for (const variable of part.variables) {
          const values = pairs
            .filter((pair) => pair === variable.name || pair.startsWith(`${variable.name}=`))
            .map((pair) => safeDecode(pair.slice(variable.name.length + 1)));
          if (values.length === 0) continue;
          result[variable.name] =
            variable.explode || values.length > 1 ? values : values[0]!.includes(',') ? values[0]!.split(',') : values[0]!;
        }
        continue;
      }
      for (const variable of part.variables) {
        const text = found[group++];
        if (text === undefined) continue;
        if (variable.explode) {
          const items = (part.operator === '' || part.operator === '+' ? text : text.slice(rule.first.length))
            .split(rule.separator)
            .filter((item) => item !== '')
            .map(safeDecode);
          result[variable.name] = items;
        } else {
          result[variable.name] = safeDecode(text);
        }
      }
    }
    return result;
  }

  #compile(): RegExp {
    let source = '^';
    for (const part of this.#parts) {
      if (typeof part === 'string') {
        source += escapeRegex(part);
        continue;
      }
      const rule = RULES[part.operator]!;
      if (part.operator === '?' || part.operator === '&' || part.operator === ';') {
        const stop = part.operator === ';' ? '/?#' : '#';
        source += `(${escapeRegex(rule.first)}[^${stop}]*)?`;
        continue;
      }
      const valueClass = rule.allowReserved ? (part.operator === '#' ? '.' : '[^?#]') : part.operator === '.' ? '[^/?#.]' : '[^/?#,]';
      part.variables.forEach((variable, i) => {
        const lead = i === 0 ? escapeRegex(rule.first) : escapeRegex(rule.separator);
        if (variable.explode) {
          source +=
            part.operator === '' || part.operator === '+'
              ? `(${valueClass}*(?:${escapeRegex(rule.separator)}${valueClass}*)*)`
              : `((?:${lead}${valueClass}*)*)`;
        } else {
          source += `(?:${lead}(${valueClass}*))${part.variables.length > 1 ? '?' : ''}`;
        }
      });
    }
    return new RegExp(`${source}$`, 'u');
  }
}

/** True when `text` contains an RFC 6570 expression (and so names a template, not a fixed URI). */
export function isUriTemplate(text: string): boolean {
  return /\{[^}]+\}/.test(text);
}
