/**
 * The command line of `wiremcp-grammar` beyond what every server takes (`--framing`, `--help`, `--version`:
 * see `runServerMain` of `@wiremcp/process`). Parsed without touching `process`, so it can be tested.
 */
import { UsageError, type FlagValues, type ServerFlags } from '@wiremcp/process';

/** What the server runs with. */
export interface CliOptions {
  /** A table file to load instead of the bundled `data/a13.yaml`. */
  table: string | undefined;
}

/** The flags of this server. */
export const OPTIONS: ServerFlags = { table: { type: 'string' } };

/** This server's part of `--help` (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `The §A13 English verb conjugation MCP server (with Spanish translations), over stdio.
It speaks every MCP revision (2024-11-05 … 2025-11-25 through initialize,
2026-07-28 per request) and exits when stdin closes, after answering the
requests in progress. A broken table stops it with every problem (file, row,
key) on stderr.

Options:
  --table FILE  load this table file instead of the bundled data/a13.yaml
`;

/** Turns the values of this server's flags into its options; throws a UsageError for a bad value. */
export function parseCliArgs(values: FlagValues): CliOptions {
  const table = values.table;
  if (table === undefined) return { table: undefined };
  if (typeof table !== 'string' || table === '') throw new UsageError('--table needs a file name');
  return { table };
}
