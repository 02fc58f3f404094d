/**
 * The command line of `wiremcp-resources-demo`, parsed without touching `process` (so it can be tested).
 */
import { parseStdioServerArgs, type StdioServerFraming } from '@wiremcp/transport-stdio';
import { DEFAULT_PAGE_SIZE, DEFAULT_TICK_MS } from './resources-demo.js';

/**
 * Where the server is served. Only stdio exists today; Streamable HTTP (`--http [host:]port`) becomes a second
 * member of this union, and the bin a second branch.
 */
export type Listen = { kind: 'stdio'; framing: StdioServerFraming };

/** What the server runs with. */
export interface CliOptions {
  listen: Listen;
  /** Items per page of every list. */
  pageSize: number;
  /** Milliseconds between clock ticks. */
  tickMs: number;
}

/** The outcome of parsing: run, print help, or stop with a usage error. */
export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** Usage text (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `Usage: wiremcp-resources-demo [--framing ndjson|content-length|auto] [--page-size N] [--tick-ms N]

Every MCP resource feature in one server, over stdio: a catalogue of documents
and images, the periodic table, a live clock and activity log, templates,
subscriptions (legacy) and listen streams (2026-07-28), caching hints. It speaks
every MCP revision and exits when stdin closes.

  --framing      how messages are framed on stdin/stdout (default: auto, detected
                 from the first bytes the client sends)
  --page-size    items per page of every list (default: ${DEFAULT_PAGE_SIZE}, 1 to 1000)
  --tick-ms      milliseconds between clock ticks (default: ${DEFAULT_TICK_MS}, 10 to 3600000)
  -h, --help     print this text
`;

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number): number | string {
  if (text === undefined) return fallback;
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) < min || Number(text) > max) {
    return `--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text.slice(0, 20))}`;
  }
  return Number(text);
}

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseStdioServerArgs(argv, { 'page-size': { type: 'string' }, 'tick-ms': { type: 'string' } });
  if (parsed.kind !== 'run') return parsed;
  const pageSize = integer('page-size', parsed.values['page-size'] as string | undefined, DEFAULT_PAGE_SIZE, 1, 1000);
  if (typeof pageSize === 'string') return { kind: 'error', message: pageSize };
  const tickMs = integer('tick-ms', parsed.values['tick-ms'] as string | undefined, DEFAULT_TICK_MS, 10, 3_600_000);
  if (typeof tickMs === 'string') return { kind: 'error', message: tickMs };
  return { kind: 'run', options: { listen: { kind: 'stdio', framing: parsed.framing }, pageSize, tickMs } };
}
