/**
 * The command line of `wiremcp-everything`, parsed without touching `process` (so it can be tested).
 */
/** What the server runs with. */
export interface CliOptions {
  /** stdio framing: detected from the client's first bytes (`auto`, default) or fixed. */
  framing: 'ndjson' | 'content-length' | 'auto';
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

const FRAMINGS = ['ndjson', 'content-length', 'auto'] as const;

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const options: CliOptions = { framing: 'auto', pageSize: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--framing') {
      const framing = value();
      if (!(FRAMINGS as readonly string[]).includes(framing ?? '')) {
        return { kind: 'error', message: `--framing must be one of ${FRAMINGS.join(', ')}, got ${framing === undefined ? 'nothing' : JSON.stringify(framing)}` };
      }
      options.framing = framing as CliOptions['framing'];
    } else if (flag === '--page-size') {
      const text = value();
      const size = Number(text);
      if (text === undefined || !/^[1-9][0-9]{0,5}$/.test(text) || !Number.isSafeInteger(size)) {
        return { kind: 'error', message: `--page-size must be a positive integer, got ${text === undefined ? 'nothing' : JSON.stringify(text)}` };
      }
      options.pageSize = size;
    } else {
      return { kind: 'error', message: `Unknown argument ${JSON.stringify(arg)}` };
    }
  }
  return { kind: 'run', options };
}
