/**
 * Keeping secrets out of what the host shows: every value that came from a `${…}` reference, and every env and
 * header value, is replaced by `[redacted]` in messages (a server's exit message quotes its command line, an HTTP
 * error may quote a URL), in the status table, and in printed configurations.
 */
import type { ServerConfig } from './types.js';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Shorter values are not searched for: a 1–3 character value would garble every message and hides nothing. */
const MIN_SECRET_LENGTH = 4;

/** Replaces each of `secrets` (longest first, so a secret containing another is hidden whole) in a text. */
export function createRedactor(secrets: Iterable<string>): (text: string) => string {
  const list = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}

function redactMap(map: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (map === undefined) return undefined;
  return Object.fromEntries(Object.keys(map).map((key) => [key, REDACTED]));
}

/**
 * A server's configuration safe to print: env and header values hidden, secrets in the command line, URL and cwd
 * replaced, the OAuth client secret hidden.
 */
export function describeServerConfig(server: ServerConfig): Record<string, unknown> {
  const redact = createRedactor(server.secrets);
  const { secrets: _secrets, env, headers, oauth, args, ...rest } = server;
  return {
    ...rest,
    ...(rest.command === undefined ? {} : { command: redact(rest.command) }),
    ...(args === undefined ? {} : { args: args.map(redact) }),
    ...(rest.url === undefined ? {} : { url: redact(rest.url) }),
    ...(rest.cwd === undefined ? {} : { cwd: redact(rest.cwd) }),
    ...(env === undefined ? {} : { env: redactMap(env) }),
    ...(headers === undefined ? {} : { headers: redactMap(headers) }),
    ...(oauth === undefined ? {} : { oauth: { ...oauth, ...(oauth.clientSecret === undefined ? {} : { clientSecret: REDACTED }) } }),
  };
}
