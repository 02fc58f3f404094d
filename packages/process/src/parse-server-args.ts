import { parseArgs } from 'node:util';
import { httpMode } from './http-mode.js';
import type { ServeMode, ServeTarget } from './serve-mode.js';
import { METRICS_FLAGS, METRICS_USAGE, parseMetricsFlag, type MetricsAddress } from './metrics-flag.js';
import { OTEL_FLAGS, OTEL_USAGE } from './otel-flag.js';
import { parseRateLimitFlags, RATE_LIMIT_FLAGS, RATE_LIMIT_USAGE, type RateLimitSettings } from './rate-limit-flag.js';
import { UsageError, type FlagValues, type ServerFlags } from './server-flags.js';
import { stdioMode } from './stdio-mode.js';
import { wsMode } from './ws-mode.js';

/**
 * The ways a server main can serve, in the order they are asked; the last one is the default: HTTP when
 * `--http [host:]port` is given, WebSocket with `--ws [host:]port`, stdio otherwise. Every bin gets them without a change.
 */
export const SERVE_MODES: readonly ServeMode[] = [wsMode, httpMode, stdioMode];

const MAIN_FLAGS: ServerFlags = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } };

/** The bin-specific part of a command line: its flags, its positional arguments, and how they become its arguments. */
export interface ServerArgsSpec<Args> {
  /** The bin's own flags (besides `--help`, `--version` and the serve modes' flags). */
  options?: ServerFlags;
  /**
   * Positional arguments the bin takes, named for the synopsis (`<directory>...`). Without it, a positional
   * argument is a usage error.
   */
  positionals?: string;
  /**
   * Turns the values of the bin's own flags (and its positional arguments, when it takes some) into its
   * arguments; throws a `UsageError` for a bad value.
   */
  parseArgs?: (values: FlagValues, positionals: readonly string[]) => Args;
}

/** The outcome of {@link parseServerArgs}. */
export type ParsedServerArgs<Args> =
  | {
      kind: 'run';
      args: Args;
      target: ServeTarget;
      metrics?: MetricsAddress;
      /** `--health`: served on the HTTP listener (by the HTTP mode) and on the metrics listener. */
      health?: true;
      /** `--otel`: spans exported over OTLP, set up by the `OTEL_*` variables. */
      otel?: true;
      /** `--rate-limit`: the limiter installed with the server's `use()`. */
      rateLimit?: RateLimitSettings;
    }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** Node's `parseArgs` messages, cut to what a user needs. */
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return `unknown option '${quoted}'`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined)
    return `unexpected argument '${quoted}' (only options are accepted)`;
  return message.split('. ')[0]!;
}

/**
 * Parses a server's command line (`process.argv.slice(2)`) without touching anything global: `-h/--help`,
 * `--version`, the serve modes' flags (`--framing`), then the bin's own flags through `spec`. Both `--flag value`
 * and `--flag=value` are accepted; unknown flags and positional arguments are usage errors. Throws (a
 * programming error, not a usage error) when the bin declares a flag the server main owns.
 */
export function parseServerArgs<Args = undefined>(argv: readonly string[], spec: ServerArgsSpec<Args> = {}): ParsedServerArgs<Args> {
  const own = spec.options ?? {};
  const shared: ServerFlags = Object.assign(
    {},
    MAIN_FLAGS,
    METRICS_FLAGS,
    OTEL_FLAGS,
    RATE_LIMIT_FLAGS,
    ...SERVE_MODES.map((mode) => mode.flags),
  );
  for (const flag of Object.keys(own)) {
    if (flag in shared) throw new Error(`the flag --${flag} belongs to every server; a bin cannot declare it`);
  }
  let values: FlagValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { ...own, ...shared },
      strict: true,
      allowPositionals: spec.positionals !== undefined,
    }));
  } catch (error) {
    return { kind: 'error', message: usageMessage(error) };
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  try {
    let target: ServeTarget | undefined;
    for (const [index, mode] of SERVE_MODES.entries()) {
      target = mode.select(values, index === SERVE_MODES.length - 1);
      if (target !== undefined) break;
    }
    const ownValues: FlagValues = {};
    for (const flag of Object.keys(own)) if (values[flag] !== undefined) ownValues[flag] = values[flag];
    const args = spec.parseArgs ? spec.parseArgs(ownValues, positionals) : (undefined as Args);
    const metrics = parseMetricsFlag(values);
    const health = values.health === true;
    if (health && values.http === undefined && metrics === undefined) {
      throw new UsageError('--health needs --http or --metrics (/healthz and /readyz are served on their listeners)');
    }
    const rateLimit = parseRateLimitFlags(values);
    return {
      kind: 'run',
      args,
      target: target!,
      ...(metrics === undefined ? {} : { metrics }),
      ...(health ? { health } : {}),
      ...(values.otel === true ? { otel: true as const } : {}),
      ...(rateLimit === undefined ? {} : { rateLimit }),
    };
  } catch (error) {
    if (error instanceof UsageError) return { kind: 'error', message: error.message };
    throw error;
  }
}

/**
 * The full usage text: the synopsis (with the bin's positional arguments, when it takes some), the bin's own text,
 * then the options and exit codes every server shares.
 */
export function formatUsage(name: string, usage: string, positionals?: string): string {
  return (
    `Usage: ${name} [options]${positionals === undefined ? '' : ` ${positionals}`}\n\n${usage.trimEnd()}\n\n` +
    'Options of every wiremcp server:\n' +
    SERVE_MODES.map((mode) => mode.usage).join('') +
    METRICS_USAGE +
    OTEL_USAGE +
    RATE_LIMIT_USAGE +
    '  --version   print the name and version, then exit\n' +
    '  -h, --help  print this text, then exit\n\n' +
    'Exit codes: 0 when stdin closes (after answering the requests in progress) or after\n' +
    'a clean shutdown on SIGINT/SIGTERM; 1 when the server cannot start, fails, or does\n' +
    'not stop in time; 2 for a bad command line. A second SIGINT/SIGTERM exits at once\n' +
    '(130/143).\n'
  );
}
