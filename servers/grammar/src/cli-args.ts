/**
 * The command line of `wiremcp-grammar`, parsed without touching `process` (so it can be tested).
 */

/** What the server runs with. */
export interface CliOptions {
  /** stdio framing: detected from the client's first bytes (`auto`, default) or fixed. */
  framing: 'ndjson' | 'content-length' | 'auto';
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

const FRAMINGS = ['ndjson', 'content-length', 'auto'] as const;

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const options: CliOptions = { framing: 'auto', table: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    if (flag === '--framing') {
      const framing = value();
      if (!(FRAMINGS as readonly string[]).includes(framing ?? '')) {
        return { kind: 'error', message: `--framing must be one of ${FRAMINGS.join(', ')}, got ${framing === undefined ? 'nothing' : JSON.stringify(framing)}` };
      }
      options.framing = framing as CliOptions['framing'];
    } else if (flag === '--table') {
      const file = value();
      if (file === undefined || file === '') return { kind: 'error', message: '--table needs a file name' };
      options.table = file;
    } else {
      return { kind: 'error', message: `Unknown argument ${JSON.stringify(arg)}` };
    }
  }
  return { kind: 'run', options };
}
