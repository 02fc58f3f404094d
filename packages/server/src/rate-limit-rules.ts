/**
 * Rate limit rules and their text form, shared by `rateLimit` and the reference servers' `--rate-limit` flag:
 * `METHOD[:NAME]=COUNT/UNIT` entries separated by commas, e.g. `tools/call=10/s,tools/call:search=2/s,*=100/m`.
 */
import { LocalError } from '@wiremcp/protocol';
import { checkRate, type BucketRate } from './token-buckets.js';

/** One limit: `capacity` requests per `periodMs` (bursts up to `capacity`) for the requests it matches. */
export interface RateLimitRule extends BucketRate {
  /** The method it counts (`tools/call`), or `*` for every request. */
  readonly method: string;
  /** Only requests naming this (a tool, prompt, resource URI; see `MiddlewareContext.name`); every one when absent. */
  readonly name?: string;
}

const UNITS = new Map<string, number>([
  ['s', 1_000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
]);

/** Examples shown by parse errors (and the flag's help). */
export const RATE_LIMIT_EXAMPLES = ['tools/call=10/s', 'tools/call=10/s,*=100/m', 'tools/call:search=2/s,resources/read=50/m'] as const;

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function syntaxError(entry: string, why: string): LocalError {
  return new LocalError(
    'INVALID_ARGUMENT',
    `bad rate limit '${shorten(entry)}': ${why}; expected METHOD[:NAME]=COUNT/UNIT (UNIT s, m, h or d), e.g. ${RATE_LIMIT_EXAMPLES.join(' or ')}`,
  );
}

/** Parses the text form; throws `INVALID_ARGUMENT` naming the bad entry, with examples. */
export function parseRateLimits(text: string): RateLimitRule[] {
  if (typeof text !== 'string' || text.trim() === '') throw syntaxError(String(text), 'no rule');
  const rules: RateLimitRule[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    const eq = entry.lastIndexOf('=');
    if (eq <= 0) throw syntaxError(entry, "missing 'METHOD='");
    const target = entry.slice(0, eq).trim();
    const match = /^(\d{1,9})\/(\d{0,6})([smhd])$/.exec(entry.slice(eq + 1).trim());
    if (match === null) throw syntaxError(entry, 'the rate must be COUNT/UNIT such as 10/s, 100/m or 5/10s');
    const capacity = Number(match[1]);
    const times = match[2] === '' ? 1 : Number(match[2]);
    if (capacity < 1 || times < 1) throw syntaxError(entry, 'count and period must be at least 1');
    const colon = target.indexOf(':');
    const method = colon < 0 ? target : target.slice(0, colon);
    const name = colon < 0 ? undefined : target.slice(colon + 1);
    if (method === '' || /\s/.test(method)) throw syntaxError(entry, 'no method');
    if (name === '' || (name !== undefined && method === '*'))
      throw syntaxError(entry, "a NAME needs a method (not '*') and must not be empty");
    const rule = { method, capacity, periodMs: times * UNITS.get(match[3]!)! };
    rules.push(name === undefined ? rule : { ...rule, name });
  }
  return rules;
}

/** Checks rules given as objects; throws `INVALID_ARGUMENT` for the first bad one. */
export function checkRules(rules: readonly RateLimitRule[]): void {
  if (!Array.isArray(rules) || rules.length === 0) throw new LocalError('INVALID_ARGUMENT', 'rateLimit needs at least one rule');
  for (const rule of rules) {
    if (typeof rule?.method !== 'string' || rule.method === '')
      throw new LocalError('INVALID_ARGUMENT', 'a rate limit rule needs a method (or *)');
    if (rule.name !== undefined && typeof rule.name !== 'string')
      throw new LocalError('INVALID_ARGUMENT', 'a rate limit rule name must be a string');
    checkRate(rule);
  }
}

/** The text form of one rule (for messages and keys), e.g. `tools/call:search=2/1000ms`. */
export function ruleLabel(rule: RateLimitRule): string {
  return `${rule.method}${rule.name === undefined ? '' : `:${rule.name}`}=${rule.capacity}/${rule.periodMs}ms`;
}
