/**
 * The command line of `wiremcp-everything`, parsed without touching `process` (so it can be tested).
 */
import { parseStdioServerArgs, type StdioServerFraming } from '@wiremcp/transport-stdio';

/** What the server runs with. */
export interface CliOptions {
  /** stdio framing: detected from the client's first bytes (`auto`, default) or fixed. */
  framing: StdioServerFraming;
  /** Items per page of every list; `undefined` keeps the server default (100). */
  pageSize: number | undefined;
}

/** The outcome of parsing: run, print help, or stop with a usage error. */
export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** Usage text (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `Usage: wiremcp-everything [--framing ndjson|content-length|auto] [--page-size N]

The wiremcp conformance fixture server, over stdio. It speaks every MCP revision
(2024-11-05 … 2025-11-25 through initialize, 2026-07-28 per request) and exits
when stdin closes, after finishing the requests in progress.

  --framing      how messages are framed on stdin/stdout (default: auto, detected
                 from the first bytes the client sends)
  --page-size    items per page of tools/list, prompts/list, resources/list and
                 resources/templates/list (default: 100)
  -h, --help     print this text
`;

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseStdioServerArgs(argv, { 'page-size': { type: 'string' } });
  if (parsed.kind !== 'run') return parsed;
  const text = parsed.values['page-size'] as string | undefined;
  if (text !== undefined && !/^[1-9][0-9]{0,5}$/.test(text)) {
    return { kind: 'error', message: `--page-size must be a positive integer, got ${JSON.stringify(text)}` };
  }
  return { kind: 'run', options: { framing: parsed.framing, pageSize: text === undefined ? undefined : Number(text) } };
}
