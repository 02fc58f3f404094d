/**
 * The command line of `wiremcp-filesystem`, parsed without touching `process` (so it can be tested): the
 * directories (positional arguments), the policies and the limits. The transport flags (`--framing`, `--http`,
 * `--path`, …), `--help` and `--version` are every server's, handled by `runServerMain` of `@wiremcp/process`.
 */
import { parseServerArgs, UsageError, type FlagValues, type ParsedServerArgs, type ServerFlags } from '@wiremcp/process';
import { DEFAULT_LIMITS, defaultConfig, type FilesystemConfig, type Limits } from './config.js';
import type { RootsFallback, RootsMode } from './sandbox/roots-policy.js';
import type { WriteMode } from './sandbox/write-ops.js';

const MIB = 1024 * 1024;

/** The positional arguments, as the synopsis names them. */
export const POSITIONALS = '<directory>...';

/** The bin's part of the usage (the synopsis, the transport options and the exit codes are added around it). */
export const USAGE = `A filesystem MCP server confined to the given directories (a drop-in for
@modelcontextprotocol/server-filesystem). It speaks every MCP revision (2024-11-05
… 2025-11-25 through initialize, 2026-07-28 per request) over stdio, or over
Streamable HTTP with --http.

Policies:
  --read-only              offer no tool that changes the disk
  --allow-delete           offer delete_file and delete_directory
  --deny <glob>            never read, write, list or reveal paths matching the glob
                           (minimatch; repeatable; e.g. --deny '**/.env' --deny '*.pem')
  --roots <policy>         how client roots combine with the directories:
                           intersect (default: they can only narrow them),
                           replace (used instead, but only inside them), ignore
  --roots-fallback <what>  when a client declares roots but cannot list them:
                           operator (default: these directories, logged), refuse
  --write-mode <mode>      how existing files are replaced: in-place (default:
                           inode, owner, permissions and hard links kept) or
                           atomic (temporary file renamed over the name)
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
`;

/** The bin's own flags. */
export const OPTIONS: ServerFlags = {
  'read-only': { type: 'boolean' },
  'allow-delete': { type: 'boolean' },
  deny: { type: 'string', multiple: true },
  roots: { type: 'string' },
  'roots-fallback': { type: 'string' },
  'write-mode': { type: 'string' },
  'allow-hardlinks': { type: 'boolean' },
  'max-read-bytes': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'max-entries': { type: 'string' },
  'max-results': { type: 'string' },
  'max-depth': { type: 'string' },
  'time-budget-ms': { type: 'string' },
  'max-watchers': { type: 'string' },
};

function parseSize(flag: string, text: unknown, minimum = 1): number {
  const match = /^(\d+)([kmg]?)b?$/i.exec(typeof text === 'string' ? text : '');
  if (!match) throw new UsageError(`${flag} needs a number (optionally with k, m or g), got ${JSON.stringify(text)}`);
  const unit = { '': 1, k: 1024, m: MIB, g: 1024 * MIB }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  const value = Number(match[1]) * unit;
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`${flag} must be at least ${minimum}`);
  return value;
}

/** Turns the bin's flags and directories into its configuration; throws a `UsageError` for a bad value. */
export function parseFilesystemArgs(values: FlagValues, positionals: readonly string[]): FilesystemConfig {
  if (positionals.length === 0) throw new UsageError('give at least one directory');
  const roots = (values.roots ?? 'intersect') as RootsMode;
  if (!['intersect', 'replace', 'ignore'].includes(roots)) {
    throw new UsageError(`--roots must be intersect, replace or ignore, got ${JSON.stringify(values.roots)}`);
  }
  const rootsFallback = (values['roots-fallback'] ?? 'operator') as RootsFallback;
  if (!['operator', 'refuse'].includes(rootsFallback)) {
    throw new UsageError(`--roots-fallback must be operator or refuse, got ${JSON.stringify(values['roots-fallback'])}`);
  }
  const writeMode = (values['write-mode'] ?? 'in-place') as WriteMode;
  if (!['in-place', 'atomic'].includes(writeMode)) {
    throw new UsageError(`--write-mode must be in-place or atomic, got ${JSON.stringify(values['write-mode'])}`);
  }
  const limits: Limits = { ...DEFAULT_LIMITS };
  const size = (flag: string, key: keyof Limits, minimum?: number): void => {
    if (values[flag] !== undefined) limits[key] = parseSize(`--${flag}`, values[flag], minimum);
  };
  size('max-read-bytes', 'maxReadBytes', 1024);
  size('max-response-bytes', 'maxResponseBytes', 4096);
  size('max-entries', 'maxEntries');
  size('max-results', 'maxResults');
  size('max-depth', 'maxDepth');
  size('time-budget-ms', 'timeBudgetMs', 100);
  if (limits.maxReadBytes > limits.maxResponseBytes) throw new UsageError('--max-read-bytes cannot be larger than --max-response-bytes');
  const deny = (values.deny as string[] | undefined) ?? [];
  if (deny.some((pattern) => pattern.trim() === '')) throw new UsageError('--deny needs a glob');
  const config = defaultConfig([...positionals], {
    readOnly: values['read-only'] === true,
    allowDelete: values['allow-delete'] === true,
    deny,
    roots,
    rootsFallback,
    writeMode,
    allowHardLinks: values['allow-hardlinks'] === true,
    limits,
    ...(values['max-watchers'] !== undefined ? { maxWatchers: parseSize('--max-watchers', values['max-watchers'], 0) } : {}),
  });
  if (config.readOnly && config.allowDelete) throw new UsageError('--allow-delete and --read-only exclude each other');
  return config;
}

/** Parses a whole command line (`process.argv.slice(2)`) the way the bin does. */
export function parseCliArgs(argv: readonly string[]): ParsedServerArgs<FilesystemConfig> {
  return parseServerArgs(argv, { options: OPTIONS, positionals: POSITIONALS, parseArgs: parseFilesystemArgs });
}
