/**
 * Revision and transport selectors of scenarios, steps and the CLI: `all`, eras, ranges, families.
 */
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import { TRANSPORT_FAMILIES, TRANSPORTS, type TransportId } from './scenario-types.js';

/**
 * True when `revision` is selected by `selector`: a revision, an era (`legacy`, `modern`) or a range
 * (`>=2025-06-18`, `<2025-11-25`, `<=`, `>`). Revision strings are dates, so ranges compare as strings.
 */
export function revisionMatches(selector: string, revision: string): boolean {
  if (selector === 'all') return true;
  if (selector === 'legacy') return (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(revision);
  if (selector === 'modern') return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(revision);
  const range = /^(>=|<=|>|<)(\d{4}-\d{2}-\d{2})$/.exec(selector);
  if (!range) return selector === revision;
  const bound = range[2]!;
  switch (range[1]) {
    case '>=':
      return revision >= bound;
    case '<=':
      return revision <= bound;
    case '>':
      return revision > bound;
    default:
      return revision < bound;
  }
}

/** The revisions (oldest first) selected by a scenario's `revisions` field. */
export function expandRevisions(selector: string | readonly string[]): string[] {
  const selectors = typeof selector === 'string' ? [selector] : selector;
  return PROTOCOL_VERSIONS.filter((revision) => selectors.some((item) => revisionMatches(item, revision)));
}

/** The transports (matrix order) selected by a list of transports and families, or `all`. */
export function expandTransports(selector: 'all' | readonly string[]): TransportId[] {
  const names = typeof selector === 'string' ? [selector] : selector;
  const chosen = new Set<TransportId>();
  for (const name of names) {
    const family = TRANSPORT_FAMILIES[name];
    if (family) for (const transport of family) chosen.add(transport);
    else if ((TRANSPORTS as readonly string[]).includes(name)) chosen.add(name as TransportId);
  }
  return TRANSPORTS.filter((transport) => chosen.has(transport));
}

/** The era of a revision. */
export function eraOf(revision: string): 'legacy' | 'modern' {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(revision) ? 'modern' : 'legacy';
}
