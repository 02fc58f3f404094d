/**
 * The command line of `wiremcp-filesystem`, parsed without touching `process` (so it can be tested): the
 * directories, the policies, the limits, and the transport (stdio with a framing; `--http [host:]port` is parsed
 * so that the Streamable HTTP transport can be plugged in, and refused by the bin until it is).
 */
import { parseArgs } from 'node:util';
import type { ProcessStdioTransportOptions } from '@wiremcp/transport-stdio';
import { DEFAULT_LIMITS, defaultConfig, type FilesystemConfig, type Limits } from './config.js';
import type { RootsMode } from './sandbox/roots-policy.js';

/** A stdio framing: newline-delimited JSON, Content-Length, or detected from the client's first bytes. */
export type StdioFraming = NonNullable<ProcessStdioTransportOptions['framing']>;

/** How the server is reached. */
export type TransportChoice = { kind: 'stdio'; framing: StdioFraming } | { kind: 'http'; host: string; port: number };

/** The outcome of parsing. */
export type ParsedArgs =
  | { kind: 'run'; config: FilesystemConfig; transport: TransportChoice }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

const MIB = 1024 * 1024;

/** Usage text (printed on stderr: stdout carries protocol bytes only). */
export const USAGE = `Usage: wiremcp-filesystem [options] <directory>...

A filesystem MCP server confined to the given directories (a drop-in for
@modelcontextprotocol/server-filesystem). It speaks every MCP revision (2024-11-05
… 2025-11-25 through initialize, 2026-07-28 per request) over stdio and exits
when stdin closes, after answering the requests in progress.

Policies:
  --read-only              offer no tool that changes the disk
  --allow-delete           offer delete_file and delete_directory
  --deny <glob>            never read, write, list or reveal paths matching the glob
                           (minimatch; repeatable; e.g. --deny '**/.env' --deny '*.pem')
  --roots <policy>         how client roots combine with the directories:
                           intersect (default: they can only narrow them),
                           replace (used instead, but only inside them), ignore
  --allow-hardlinks        read and replace files that have several hard links
                           (refused by default: another link may be outside)

Limits (sizes take k, m, g suffixes):
  --max-read-bytes <n>     bytes one read returns (default 1m)
  --max-response-bytes <n> bytes of one tool result (default 4m)
  --max-entries <n>        entries one listing or tree may return (default ${DEFAULT_LIMITS.maxEntries})
  --max-results <n>        results one search may return (default ${DEFAULT_LIMITS.maxResults})
  --max-depth <n>          levels a tree or search enters (default ${DEFAULT_LIMITS.maxDepth})
  --time-budget-ms <n>     time of one call (default ${DEFAULT_LIMITS.timeBudgetMs})
  --max-watchers <n>       directories watched for subscriptions (default 64)

Transport:
  --framing <f>            stdio framing: ndjson, content-length, auto (default:
                           detected from the client's first bytes)
  --http [host:]port       Streamable HTTP instead of stdio (needs
                           @wiremcp/transport-http; not in this build)
  -h, --help               print this text
  --version                print the version
`;

function parseSize(flag: string, text: string | undefined, minimum = 1): number {
  const match = /^(\d+)([kmg]?)b?$/i.exec(text ?? '');
  if (!match) throw new Error(`${flag} needs a number (optionally with k, m or g), got ${JSON.stringify(text)}`);
  const unit = { '': 1, k: 1024, m: MIB, g: 1024 * MIB }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  const value = Number(match[1]) * unit;
  if (!Number.isSafeInteger(value) || value < minimum) throw new Error(`${flag} must be at least ${minimum}`);
  return value;
}

function parseHttp(text: string): { host: string; port: number } {
  const match = /^(?:(.+):)?(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port < 1 || port > 65_535) throw new Error(`--http needs [host:]port, got ${JSON.stringify(text)}`);
  return { host: match[1] ?? '127.0.0.1', port };
}

/** Parses the arguments after the executable and script (`process.argv.slice(2)`). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'read-only': { type: 'boolean' },
        'allow-delete': { type: 'boolean' },
        deny: { type: 'string', multiple: true },
        roots: { type: 'string' },
        'allow-hardlinks': { type: 'boolean' },
        'max-read-bytes': { type: 'string' },
        'max-response-bytes': { type: 'string' },
        'max-entries': { type: 'string' },
        'max-results': { type: 'string' },
        'max-depth': { type: 'string' },
        'time-budget-ms': { type: 'string' },
        'max-watchers': { type: 'string' },
        framing: { type: 'string' },
        http: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  try {
    if (positionals.length === 0) throw new Error('give at least one directory');
    const roots = (values.roots ?? 'intersect') as RootsMode;
    if (!['intersect', 'replace', 'ignore'].includes(roots))
      throw new Error(`--roots must be intersect, replace or ignore, got ${JSON.stringify(values.roots)}`);
    const framing = (values.framing ?? 'auto') as StdioFraming;
    if (!['ndjson', 'content-length', 'auto'].includes(framing))
      throw new Error(`--framing must be ndjson, content-length or auto, got ${JSON.stringify(values.framing)}`);
    const limits: Limits = { ...DEFAULT_LIMITS };
    const size = (flag: keyof typeof values, key: keyof Limits, minimum?: number): void => {
      if (values[flag] !== undefined) limits[key] = parseSize(`--${flag}`, values[flag] as string, minimum);
    };
    size('max-read-bytes', 'maxReadBytes', 1024);
    size('max-response-bytes', 'maxResponseBytes', 4096);
    size('max-entries', 'maxEntries');
    size('max-results', 'maxResults');
    size('max-depth', 'maxDepth');
    size('time-budget-ms', 'timeBudgetMs', 100);
    if (limits.maxReadBytes > limits.maxResponseBytes) throw new Error('--max-read-bytes cannot be larger than --max-response-bytes');
    const deny = values.deny ?? [];
    if (deny.some((pattern) => pattern.trim() === '')) throw new Error('--deny needs a glob');
    const config = defaultConfig(positionals, {
      readOnly: values['read-only'] === true,
      allowDelete: values['allow-delete'] === true,
      deny,
      roots,
      allowHardLinks: values['allow-hardlinks'] === true,
      limits,
      ...(values['max-watchers'] !== undefined ? { maxWatchers: parseSize('--max-watchers', values['max-watchers'], 0) } : {}),
    });
    if (config.readOnly && config.allowDelete) throw new Error('--allow-delete and --read-only exclude each other');
    const transport: TransportChoice = values.http !== undefined ? { kind: 'http', ...parseHttp(values.http) } : { kind: 'stdio', framing };
    if (values.http !== undefined && values.framing !== undefined) throw new Error('--framing applies to stdio only');
    return { kind: 'run', config, transport };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
}
