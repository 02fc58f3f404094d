/**
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1): parsing what a server sent (several challenges, possibly joined
 * by `fetch` from several header lines) and formatting what a server sends. Parsing is bounded and never throws.
 */

/** One authentication challenge. */
export interface Challenge {
  /** The auth scheme, lower-cased (`bearer`, `dpop`, `basic`…). */
  readonly scheme: string;
  /** Auth parameters with lower-cased names and unescaped values. */
  readonly params: Readonly<Record<string, string>>;
  /** A token68 credential-like value, when the challenge carries one instead of parameters. */
  readonly token68?: string;
}

/** Longest header value that is parsed; anything beyond is ignored (servers send a few hundred bytes). */
export const MAX_CHALLENGE_HEADER_LENGTH = 8192;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/**
 * Parses a `WWW-Authenticate` header value into its challenges. Malformed trailing parts are dropped; an absent,
 * empty or unparseable value yields `[]`.
 */
export function parseWwwAuthenticate(header: string | null | undefined): Challenge[] {
  if (!header) return [];
  let rest = header.length > MAX_CHALLENGE_HEADER_LENGTH ? header.slice(0, MAX_CHALLENGE_HEADER_LENGTH) : header;
  const challenges: Challenge[] = [];
  const skip = (pattern: RegExp): void => {
    rest = rest.replace(pattern, '');
  };
  while (rest.length > 0) {
    skip(/^[\s,]+/);
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const params: Record<string, string> = {};
    let token68: string | undefined;
    if (/^[ \t]+/.test(rest)) {
      skip(/^[ \t]+/);
      // Either a token68 or a comma-separated list of auth-params; an auth-param starts with `name =`.
      const looksLikeParam = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=(?!=*\s*(,|$))/.test(rest);
      const t68 = looksLikeParam ? undefined : TOKEN68.exec(rest)?.[0];
      if (t68 && /^\s*(,|$)/.test(rest.slice(t68.length))) {
        token68 = t68;
        rest = rest.slice(t68.length);
      } else {
        for (;;) {
          skip(/^[ \t]*,?[ \t]*/);
          const name = TOKEN.exec(rest)?.[0];
          if (!name) break;
          const afterName = rest.slice(name.length).replace(/^[ \t]*/, '');
          if (!afterName.startsWith('=')) break; // the next challenge's scheme
          let value: string | undefined;
          let after = afterName.slice(1).replace(/^[ \t]*/, '');
          if (after.startsWith('"')) {
            const match = /^"((?:[^"\\]|\\[\s\S])*)"/.exec(after);
            if (!match) return challenges.concat({ scheme: scheme.toLowerCase(), params });
            value = match[1]!.replace(/\\([\s\S])/g, '$1');
            after = after.slice(match[0].length);
          } else {
            value = TOKEN.exec(after)?.[0];
            if (value === undefined) return challenges.concat({ scheme: scheme.toLowerCase(), params });
            after = after.slice(value.length);
          }
          const key = name.toLowerCase();
          if (!(key in params)) params[key] = value;
          rest = after;
          // A comma followed by `token =` continues this challenge; a comma followed by `token token`/`token,` starts
          // the next one.
          const next = /^[ \t]*,[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*(=?)/.exec(rest);
          if (!next) break;
          if (next[2] !== '=') break;
        }
      }
    }
    challenges.push(token68 === undefined ? { scheme: scheme.toLowerCase(), params } : { scheme: scheme.toLowerCase(), params, token68 });
  }
  return challenges;
}

/** The first challenge of the given scheme (case-insensitive), if any. */
export function findChallenge(challenges: readonly Challenge[], scheme: string): Challenge | undefined {
  const wanted = scheme.toLowerCase();
  return challenges.find((challenge) => challenge.scheme === wanted);
}

/**
 * Formats one challenge: `Scheme name="value", …`. Values are quoted and escaped; a value containing a control
 * character (which would allow header injection) is refused with a `TypeError`, since it is a programming error.
 */
export function formatChallenge(scheme: string, params: Readonly<Record<string, string | undefined>>): string {
  if (!TOKEN.test(scheme) || TOKEN.exec(scheme)![0] !== scheme) throw new TypeError('invalid auth scheme');
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (TOKEN.exec(name)?.[0] !== name) throw new TypeError('invalid auth-param name');
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new TypeError('auth-param values must not contain control characters');
    parts.push(`${name}="${value.replace(/["\\]/g, (c) => `\\${c}`)}"`);
  }
  return parts.length === 0 ? scheme : `${scheme} ${parts.join(', ')}`;
}
