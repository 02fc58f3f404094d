/**
 * Keeping credentials out of text the CLI shows in a page or a trace: a server's stderr, an error that quotes a
 * command line, an HTTP header. Two kinds of secret are hidden:
 *
 * - values known to be secret: what `--header` and `--env` were given, and every `${…}` value of a host
 *   configuration (`createRedactor` of `@wiremcp/host`, which the host's own status and errors use);
 * - values recognised by their context: `Authorization: Bearer …` (and Basic, DPoP, Proxy-Authorization, Cookie),
 *   `access_token=…`, `"client_secret": "…"`, `--api-key …` and their kin in query strings, JSON, headers and command
 *   lines; a password in a URL's user info; and tokens with a well-known shape (JWTs, `ghp_…`, `sk-…`, `xox…-`).
 *
 * The name that gave a value away is kept (`access_token=[redacted]`), so the line still says what was there.
 */
import { createRedactor, REDACTED } from '@wiremcp/host';

/** Text longer than this is cut before redaction (what the page shows is bounded anyway). */
const MAX_TEXT = 1024 * 1024;

const NAMES = [
  'access[_-]?token',
  'refresh[_-]?token',
  'id[_-]?token',
  'auth[_-]?token',
  'bearer[_-]?token',
  'session[_-]?token',
  'client[_-]?secret',
  'client[_-]?assertion',
  'code[_-]?verifier',
  'api[_-]?key',
  'x-api-key',
  'private[_-]?key',
  'secret(?:[_-]?key)?',
  'password',
  'passwd',
  'token',
].join('|');

/** `name=value`, `name: value`, `"name": "value"`, `--name value`, `--name=value` (the value up to a delimiter). */
const NAMED = new RegExp(
  `((?<![A-Za-z0-9])(?:--)?["']?(?:${NAMES})["']?(?:\\s*[=:]\\s*|(?<=--[A-Za-z_-]+)\\s+)["']?)([^\\s"'&,;<>\\\\]+)`,
  'gi',
);
/** Header lines and their JSON or command-line forms: the scheme is kept, the credential hidden. */
const HEADER = new RegExp(
  `((?<![A-Za-z0-9-])["']?(?:proxy-)?(?:authorization|cookie|set-cookie|dpop)["']?\\s*[:=]\\s*["']?` +
    `(?:(?:bearer|basic|dpop|digest|token|negotiate)\\s+)?)([^\\s"'\\\\][^"'\\r\\n\\\\]*)`,
  'gi',
);
/** A bearer credential outside any header line (`sent Bearer abc…`). */
const BEARER = /\b(bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)/gi;
/** `scheme://user:password@host` (lengths bounded: no pattern may scan the rest of a long line from every position). */
const USERINFO = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@"'<>]{0,256}:)([^\s@/"'<>]{1,256})(@)/gi;
/**
 * Tokens recognisable on their own. Each starts only where the character before cannot be part of it, so a line made
 * of repeated prefixes (`eyJ-eyJ-…`) is scanned once, not once per prefix.
 */
const SHAPES = [
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, // JWT (header and payload are base64url JSON)
  /(?<![A-Za-z0-9_])gh[opsur]_[A-Za-z0-9]{20,}/g, // GitHub
  /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, // OpenAI-style secret keys
  /(?<![A-Za-z0-9-])xox[abeprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])/g, // AWS access key id
];

/** The values secret by being given: `--header` values and `--env` values (short ones are left, as the host does). */
export function knownSecrets(options: { readonly headers?: readonly string[]; readonly env?: readonly string[] }): string[] {
  const values: string[] = [];
  for (const header of options.headers ?? []) values.push(header.slice(header.indexOf(':') + 1).trim());
  for (const pair of options.env ?? []) if (pair.includes('=')) values.push(pair.slice(pair.indexOf('=') + 1));
  return values;
}

/**
 * A function that hides `known` secrets and every credential recognised by its context or shape in a text (see the
 * module comment). It never throws, and it is linear in the text (no pattern backtracks over more than a line).
 */
export function secretRedactor(known: Iterable<string> = []): (text: string) => string {
  const exact = createRedactor(known);
  return (input) => {
    let text = input.length > MAX_TEXT ? input.slice(0, MAX_TEXT) : input;
    text = exact(text);
    text = text.replace(HEADER, (_whole, prefix: string) => `${prefix}${REDACTED}`);
    text = text.replace(NAMED, (whole, prefix: string, value: string) => (value === REDACTED ? whole : `${prefix}${REDACTED}`));
    text = text.replace(BEARER, (_whole, scheme: string) => `${scheme}${REDACTED}`);
    text = text.replace(USERINFO, (_whole, before: string, _password: string, at: string) => `${before}${REDACTED}${at}`);
    for (const shape of SHAPES) text = text.replace(shape, REDACTED);
    return text;
  };
}
