import { parseArgs } from 'node:util';
import type { Transport } from '@wiremcp/jsonrpc';
import { createProcessStdioTransport } from './process-stdio-transport.js';

/** The framings a stdio server accepts on its command line. */
export type StdioServerFraming = 'ndjson' | 'content-length' | 'auto';

/** Extra flags of a server command line (besides `--framing` and `--help`), in `node:util` `parseArgs` form. */
export type ServerFlags = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The outcome of {@link parseStdioServerArgs}: run, print help, or stop with a usage error. */
export type ParsedServerArgs =
  | { kind: 'run'; framing: StdioServerFraming; values: Record<string, string | boolean | undefined> }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

const FRAMINGS: readonly StdioServerFraming[] = ['ndjson', 'content-length', 'auto'];

/**
 * Parses a stdio server's command line: `--framing ndjson|content-length|auto` (default `auto`), `-h/--help`,
 * and the given extra flags (both `--flag value` and `--flag=value`). Unknown flags and positional arguments are
 * usage errors. Touches nothing global, so it can be tested.
 */
export function parseStdioServerArgs(argv: readonly string[], flags: ServerFlags = {}): ParsedServerArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...flags, framing: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { kind: 'help' };
  const framing = values.framing ?? 'auto';
  if (!FRAMINGS.includes(framing as StdioServerFraming)) {
    return { kind: 'error', message: `--framing must be one of ${FRAMINGS.join(', ')}, got ${JSON.stringify(framing)}` };
  }
  return { kind: 'run', framing: framing as StdioServerFraming, values };
}

/** Something that serves a transport (an `McpServer`, whose `connect` returns the connection). */
export interface StdioServable {
  connect(transport: Transport): Promise<{ close(): Promise<void> }>;
}

/**
 * Serves `server` on this process's stdin/stdout: writes a start line to stderr, and on SIGTERM/SIGINT closes
 * the connection (ending listen streams, giving in-flight requests a moment) and exits 0 after a short grace
 * period. When stdin closes, the connection finishes what is in flight and closes, and the process exits 0 on
 * its own. Only protocol bytes ever reach stdout.
 */
export async function serveProcessStdio(
  server: StdioServable,
  options: { name: string; version: string; framing: StdioServerFraming },
): Promise<void> {
  const connection = await server.connect(createProcessStdioTransport({ framing: options.framing }));
  process.stderr.write(`${options.name} ${options.version}: serving MCP on stdio (framing: ${options.framing})\n`);
  const stop = (signal: string): void => {
    process.stderr.write(`${options.name}: ${signal}, shutting down\n`);
    void connection.close().finally(() => {
      // Whatever still holds the event loop gets a short grace period; the timer itself does not hold it.
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
