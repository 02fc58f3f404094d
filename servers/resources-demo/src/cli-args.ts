/**
 * The command line of `wiremcp-resources-demo` beyond what every server takes (`--framing`, `--help`,
 * `--version`: see `runServerMain` of `@wiremcp/process`). Parsed without touching `process`, so it can be tested.
 */
import { UsageError, type FlagValues, type ServerFlags } from '@wiremcp/process';
import { DEFAULT_PAGE_SIZE, DEFAULT_TICK_MS } from './resources-demo.js';

/** What the server runs with. */
export interface CliOptions {
  /** Items per page of every list. */
  pageSize: number;
  /** Milliseconds between clock ticks. */
  tickMs: number;
}

/** The flags of this server. */
export const OPTIONS: ServerFlags = { 'page-size': { type: 'string' }, 'tick-ms': { type: 'string' } };

/** This server's part of `--help` (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `Every MCP resource feature in one server: a catalogue of documents and images,
the periodic table, a live clock and activity log, templates, subscriptions
(legacy) and listen streams (2026-07-28), caching hints. It speaks every MCP
revision and exits when stdin closes.

Options:
  --page-size N  items per page of every list (default: ${DEFAULT_PAGE_SIZE}, 1 to 1000)
  --tick-ms N    milliseconds between clock ticks (default: ${DEFAULT_TICK_MS}, 10 to 3600000)
`;

function integer(name: string, value: string | boolean | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text.slice(0, 20))}`);
  }
  return Number(text);
}

/** Turns the values of this server's flags into its options; throws a UsageError for a bad value. */
export function parseCliArgs(values: FlagValues): CliOptions {
  return {
    pageSize: integer('page-size', values['page-size'] as string | undefined, DEFAULT_PAGE_SIZE, 1, 1000),
    tickMs: integer('tick-ms', values['tick-ms'] as string | undefined, DEFAULT_TICK_MS, 10, 3_600_000),
  };
}
