/**
 * Allow and deny lists of names: `*` matches any run of characters, `?` one character, everything else itself. A
 * name is offered when no deny pattern matches it and, if there is an allow list, an allow pattern does.
 */
import type { NameFilter } from '../config/types.js';

/** A compiled {@link NameFilter}: `(name) => boolean`. */
export type NamePredicate = (name: string) => boolean;

function compile(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}

/** Compiles a filter (no filter: every name passes). */
export function namePredicate(filter: NameFilter | undefined): NamePredicate {
  if (filter === undefined) return () => true;
  const allow = filter.allow?.map(compile);
  const deny = (filter.deny ?? []).map(compile);
  return (name) => !deny.some((re) => re.test(name)) && (allow === undefined || allow.some((re) => re.test(name)));
}
