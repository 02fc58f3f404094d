/**
 * Templates: what turns a scenario's messages and patterns into the concrete ones of a cell.
 *
 * - `{{name}}` and `{{a.b.0.c}}` look a variable up (`revision`, `era`, `server`, `transport`,
 *   `capture.<name>`, `limits.<name>`…). A string that is exactly one `{{…}}` becomes the value itself, with
 *   its type (a captured number stays a number, a captured object an object); inside a longer string the value
 *   is inserted as text (JSON for objects). `{{x + 1}}` / `{{x - 1}}` add or subtract an integer.
 * - `{$byRevision: {...}}` picks one branch for the cell's revision: an exact revision key wins over a range
 *   (`>=2025-06-18`, `<2025-03-26`), a range over an era (`legacy`, `modern`), an era over `default`. When no
 *   branch applies, the enclosing object key (or array item) is dropped.
 * - `{$omit: true}` drops the enclosing key or item (to remove something a macro would add, e.g. a `_meta` key).
 * - Object keys are templated as text (`{"{{capture.key}}": …}`).
 */

/** The variables a template can refer to. */
export interface TemplateScope {
  readonly revision: string;
  readonly era: 'legacy' | 'modern';
  readonly vars: Readonly<Record<string, unknown>>;
}

/** A template that cannot be resolved (unknown variable, capture not set, no `$byRevision` branch at the top). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const DROP = Symbol('drop');
const WHOLE = /^\{\{\s*([^{}]+?)\s*\}\}$/;
const INLINE = /\{\{\s*([^{}]+?)\s*\}\}/g;

function lookup(expression: string, scope: TemplateScope): unknown {
  const arithmetic = /^(.+?)\s*([+-])\s*(\d+)$/.exec(expression);
  if (arithmetic) {
    const base = lookup(arithmetic[1]!, scope);
    if (typeof base !== 'number') throw new TemplateError(`{{${expression}}}: ${arithmetic[1]} is not a number`);
    const delta = Number(arithmetic[3]);
    return arithmetic[2] === '+' ? base + delta : base - delta;
  }
  const parts = expression.split('.');
  const root = parts[0]!;
  let value: unknown;
  if (root === 'revision') value = scope.revision;
  else if (root === 'era') value = scope.era;
  else if (Object.prototype.hasOwnProperty.call(scope.vars, root)) value = scope.vars[root];
  else throw new TemplateError(`{{${expression}}}: unknown variable '${root}'`);
  for (let index = 1; index < parts.length; index += 1) {
    const key = parts[index]!;
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key)) {
      const where = parts.slice(0, index).join('.');
      throw new TemplateError(
        root === 'capture' && index === 1
          ? `{{${expression}}}: nothing was captured as '${key}' (yet)`
          : `{{${expression}}}: ${where} has no '${key}'`,
      );
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function resolveString(text: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return lookup(whole[1]!, scope);
  if (!text.includes('{{')) return text;
  return text.replace(INLINE, (_all, expression: string) => {
    const value = lookup(expression, scope);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function revisionBranch(branches: Record<string, unknown>, scope: TemplateScope): unknown {
  if (Object.prototype.hasOwnProperty.call(branches, scope.revision)) return branches[scope.revision];
  for (const [key, value] of Object.entries(branches)) {
    const range = /^(>=|<=|>|<)(\d{4}-\d{2}-\d{2})$/.exec(key);
    if (!range) continue;
    const [, op, bound] = range;
    const r = scope.revision;
    const ok = op === '>=' ? r >= bound! : op === '<=' ? r <= bound! : op === '>' ? r > bound! : r < bound!;
    if (ok) return value;
  }
  if (Object.prototype.hasOwnProperty.call(branches, scope.era)) return branches[scope.era];
  if (Object.prototype.hasOwnProperty.call(branches, 'default')) return branches['default'];
  return DROP;
}

function resolveAny(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return resolveString(value, scope);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const resolved = resolveAny(item, scope);
      if (resolved !== DROP) out.push(resolved);
    }
    return out;
  }
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if ('$byRevision' in object) {
    const branch = revisionBranch(object['$byRevision'] as Record<string, unknown>, scope);
    return branch === DROP ? DROP : resolveAny(branch, scope);
  }
  if (object['$omit'] === true) return DROP;
  // A $literal value is still templated (so it can hold a capture), but nothing inside is an operator.
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    const resolved = resolveAny(item, scope);
    // Keys can be templates too (an input key chosen by the server, captured earlier); they become text.
    const name = key.includes('{{') ? String(resolveString(key, scope)) : key;
    if (resolved !== DROP) out[name] = resolved;
  }
  return out;
}

/**
 * Resolves every template in `value` for a cell. Throws a {@link TemplateError} when a variable is unknown or
 * a capture is missing, or when the whole value is a `$byRevision` with no branch for the cell.
 */
export function resolveTemplate<T = unknown>(value: unknown, scope: TemplateScope): T {
  const resolved = resolveAny(value, scope);
  if (resolved === DROP) throw new TemplateError(`no $byRevision branch applies to ${scope.revision} and there is no default`);
  return resolved as T;
}
