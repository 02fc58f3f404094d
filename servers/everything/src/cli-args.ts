/**
 * The command line of `wiremcp-everything` beyond what every server takes (`--framing`, `--help`, `--version`:
 * see `runServerMain` of `@wiremcp/process`). Parsed without touching `process`, so it can be tested.
 */
import { UsageError, type FlagValues, type ServerFlags } from '@wiremcp/process';

/** What the server runs with. */
export interface CliOptions {
  /** Items per page of every list; `undefined` keeps the server default (100). */
  pageSize: number | undefined;
}

/** The flags of this server. */
export const OPTIONS: ServerFlags = { 'page-size': { type: 'string' } };

/** This server's part of `--help` (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `The wiremcp conformance fixture server, over stdio. It speaks every MCP revision
(2024-11-05 … 2025-11-25 through initialize, 2026-07-28 per request) and exits
when stdin closes, after finishing the requests in progress.

Options:
  --page-size N  items per page of tools/list, prompts/list, resources/list and
                 resources/templates/list (default: 100)
`;

/** Turns the values of this server's flags into its options; throws a UsageError for a bad value. */
export function parseCliArgs(values: FlagValues): CliOptions {
  const text = values['page-size'];
  if (text === undefined) return { pageSize: undefined };
  if (typeof text !== 'string' || !/^[1-9][0-9]{0,5}$/.test(text)) {
    throw new UsageError(`--page-size must be a positive integer, got ${JSON.stringify(text)}`);
  }
  return { pageSize: Number(text) };
}
