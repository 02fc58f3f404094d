/**
 * Content Security Policy of a view, from its declared `_meta.ui.csp`. Domains are checked before they reach a
 * header: an origin (`https://api.example.com`, `wss://rt.example.com:8443`) or a wildcard subdomain
 * (`https://*.example.com`), nothing else — no keywords, no quotes, no `;` or spaces that could add a directive.
 * Nothing undeclared is allowed: with no `csp` the extension's restrictive default applies.
 */
import type { UiResourceCsp } from './wire.js';

const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$/i;
const KINDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
/** Origins per kind; more is refused (a header of unbounded size helps no one). */
export const MAX_CSP_DOMAINS = 64;

/** The problems of a declared CSP (empty when it is valid). */
export function cspProblems(csp: unknown): string[] {
  if (csp === undefined) return [];
  if (csp === null || typeof csp !== 'object' || Array.isArray(csp)) return ['csp is not an object'];
  const problems: string[] = [];
  for (const kind of KINDS) {
    const domains = (csp as Record<string, unknown>)[kind];
    if (domains === undefined) continue;
    if (!Array.isArray(domains)) {
      problems.push(`${kind} is not a list`);
      continue;
    }
    if (domains.length > MAX_CSP_DOMAINS) problems.push(`${kind} lists more than ${MAX_CSP_DOMAINS} origins`);
    for (const domain of domains.slice(0, MAX_CSP_DOMAINS)) {
      if (typeof domain !== 'string' || !ORIGIN.test(domain)) {
        problems.push(`${kind}: ${JSON.stringify(String(domain).slice(0, 80))} is not an origin (scheme://host[:port], *.host allowed)`);
      }
    }
  }
  return problems;
}

/**
 * The CSP for a view: `default-src 'none'`, scripts and styles inline or from the declared resource origins, network
 * only to the declared connect origins, nested frames only from frame origins (else `'none'`), `object-src 'none'`.
 * Throws a `TypeError` for an invalid declaration (a host must not loosen what it cannot read).
 */
export function buildCsp(csp: UiResourceCsp | undefined): string {
  const problems = cspProblems(csp);
  if (problems.length > 0) throw new TypeError(`invalid ui csp: ${problems.join('; ')}`);
  const list = (domains: readonly string[] | undefined): string => (domains && domains.length > 0 ? ` ${domains.join(' ')}` : '');
  const resources = list(csp?.resourceDomains);
  const connect = csp?.connectDomains && csp.connectDomains.length > 0 ? csp.connectDomains.join(' ') : "'none'";
  const frames = csp?.frameDomains && csp.frameDomains.length > 0 ? csp.frameDomains.join(' ') : "'none'";
  const base = csp?.baseUriDomains && csp.baseUriDomains.length > 0 ? csp.baseUriDomains.join(' ') : "'self'";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src ${connect}`,
    `frame-src ${frames}`,
    "object-src 'none'",
    `base-uri ${base}`,
  ].join('; ');
}
