/**
 * What a command talks to: a stdio server (a command line, spawned without a shell) or an MCP endpoint URL.
 */
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';

/** A server reached over stdio: the program and its arguments. */
export interface StdioTarget {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
}

/** A server reached over HTTP (Streamable HTTP of either era, or 2024-11-05 HTTP+SSE). */
export interface HttpTarget {
  readonly kind: 'http';
  readonly url: URL;
}

/** A {@link StdioTarget} or an {@link HttpTarget}. */
export type Target = StdioTarget | HttpTarget;

/**
 * Reads a target from the words of the command line: one `http://` or `https://` URL, or a command and its
 * arguments. Throws a usage {@link CliError} when there is none, or a URL is followed by more words.
 */
export function parseTarget(words: readonly string[]): Target {
  const [first, ...rest] = words;
  if (first === undefined || first === '')
    throw new CliError('a target is needed: a command (node server.js) or a URL', CLI_EXIT_CODES.usage);
  if (/^https?:\/\//i.test(first)) {
    if (rest.length > 0) throw new CliError(`a URL target takes no arguments, got ${JSON.stringify(rest[0])}`, CLI_EXIT_CODES.usage);
    let url: URL;
    try {
      url = new URL(first);
    } catch {
      throw new CliError(`not a valid URL: ${JSON.stringify(first)}`, CLI_EXIT_CODES.usage);
    }
    return { kind: 'http', url };
  }
  return { kind: 'stdio', command: first, args: rest };
}

/** A short description of the target for messages: the command line, or the URL. */
export function describeTarget(target: Target): string {
  return target.kind === 'http' ? target.url.href : [target.command, ...target.args].join(' ');
}
