/**
 * The command line of `wiremcp-grammar`, parsed without touching `process` (so it can be tested).
 */
import { parseStdioServerArgs, type StdioServerFraming } from '@wiremcp/transport-stdio';

/** What the server runs with. */
export interface CliOptions {
  /** stdio framing: detected from the client's first bytes (`auto`, default) or fixed. */
  framing: StdioServerFraming;
  /** A table file to load instead of the bundled `data/a13.yaml`. */
  table: string | undefined;
}

/** The outcome of parsing: run, print help, or stop with a usage error. */
export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** Usage text (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `Usage: wiremcp-grammar [--framing ndjson|content-length|auto] [--table FILE]

The §A13 English verb conjugation MCP server (with Spanish translations), over stdio.
It speaks every MCP revision (2024-11-05 … 2025-11-25 through initialize,
2026-07-28 per request) and exits when stdin closes, after answering the
requests in progress.

  --framing   how messages are framed on stdin/stdout (default: auto, detected
              from the first bytes the client sends)
  --table     load this table file instead of the bundled data/a13.yaml
  -h, --help  print this text
`;

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseStdioServerArgs(argv, { table: { type: 'string' } });
  if (parsed.kind !== 'run') return parsed;
  const table = parsed.values.table as string | undefined;
  if (table === '') return { kind: 'error', message: '--table needs a file name' };
  return { kind: 'run', options: { framing: parsed.framing, table } };
}
