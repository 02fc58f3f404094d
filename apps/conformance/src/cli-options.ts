/**
 * The command line of `wiremcp-conformance`.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { expandRevisions, expandTransports } from './scenario/selectors.js';
import { TRANSPORT_FAMILIES, TRANSPORTS, type TransportId } from './scenario/scenario-types.js';

/** The parsed command line. */
export interface CliOptions {
  readonly servers: string[];
  readonly transports: TransportId[];
  readonly revisions: string[];
  readonly scenarios: string[];
  readonly command?: string;
  readonly url?: string;
  /** Id of the `--command`/`--url` target in reports and baselines. */
  readonly name: string;
  readonly jobs: number;
  /** Baseline file; `undefined` with `noBaseline`. */
  readonly baseline?: string;
  readonly noBaseline: boolean;
  readonly out?: string;
  readonly html: boolean;
  readonly list: boolean;
  readonly registry?: string;
  readonly scenariosDir?: string;
  readonly timeoutScale: number;
  /** How long one server start may take, in ms (`--startup-timeout`, given in seconds). */
  readonly startupTimeoutMs: number;
  /** Where to write JUnit XML, if asked. */
  readonly junit?: string;
  /** Results of the official conformance suite to include (see report/official-suite.ts). */
  readonly officialResults?: string;
  /** Run the official conformance suite first (see official/include.ts). */
  readonly official: boolean;
  /** The client command for the official suite's client leg. */
  readonly officialClient?: string;
  readonly plain: boolean;
  /** Where to write the run's events as NDJSON (`-`: standard output, the text then goes to standard error). */
  readonly events?: string;
  readonly help: boolean;
}

/**
 * The default of `--jobs`: four per CPU. A cell spends most of its time waiting — for a server to start, to
 * answer, or through the silence an `expectNone` step listens to — so one job per CPU leaves them idle (measured
 * on 2 cores: 4 jobs ran the default matrix about twice as fast as 2, and 8 about a fifth faster than 4).
 */
export function defaultJobs(): number {
  return Math.min(64, availableParallelism() * 4);
}

/** The default of `--startup-timeout`, in seconds: generous, for a cold `npx -y` that installs its package first. */
export const DEFAULT_STARTUP_TIMEOUT_S = 120;

/** Thrown for a bad command line (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The `--help` text. */
export const HELP = `wiremcp-conformance — replays MCP spec scenarios against servers, transports and revisions

Usage: wiremcp-conformance [options]

With no option, runs every scenario against every default reference server of servers.yaml over every
transport and revision they support, prints a summary, writes out/results.json and out/report.html, and
exits non-zero on an unexpected failure or a stale baseline entry.

Selection (repeatable, or comma-separated):
  --server <id>          reference servers from servers.yaml (default: those marked default)
  --transport <t>        stdio-ndjson, stdio-content-length, streamable-http, streamable-http-stateless,
                         http-sse, websocket, or a family: stdio, http
  --revision <r>         2024-11-05 … 2026-07-28, or legacy / modern
  --scenario <glob>      scenario ids, area/id or areas; * is a wildcard (e.g. 'tools/*', '*cancel*')

Any server:
  --command "<cmd>"      a stdio server command line (quotes and backslashes as in a shell, no expansion)
  --url <url>            a Streamable HTTP endpoint: server/discover, then initialize, as a client does;
                         2026-07-28 runs stateless, 2025-03-26 … 2025-11-25 on sessions (--transport forces
                         one wire; --transport http-sse with the SSE endpoint runs 2024-11-05)
  --name <id>            the id of that server in reports (default: external); the id of a servers.yaml
                         server applies that server's baseline entries and scenarios (reporting its
                         serverInfo only suggests it).
                         The server is started once first, then probed: scenarios needing capabilities it
                         does not declare are not applicable.

Run:
  --jobs <n>             cells (or lanes of cells) in parallel (default: four per CPU)
  --startup-timeout <s>  how long one server start may take before it answers (default ${DEFAULT_STARTUP_TIMEOUT_S})
  --timeout-scale <x>    multiply every expect timeout (default 1)
  --baseline <file>      expected failures (default: apps/conformance/baseline.yaml)
  --no-baseline          use no baseline
  --registry <file>      the server registry (default: apps/conformance/servers.yaml)
  --scenarios-dir <dir>  where scenarios live (default: apps/conformance/scenarios)

Output:
  --out <dir>            where results.json and report.html go (default: apps/conformance/out)
  --no-html              do not write report.html
  --junit <file>         also write JUnit XML there
  --official-results <f> include the official conformance suite's results (results.json "officialSuite");
                         by default the latest results of npm run conformance:official are included when present
  --official             run the official conformance suite first: its server leg against --url (or
                         servers/everything), its client leg with --official-client (or wiremcp's client)
  --official-client <c>  the client command for the official suite's client leg (with --official)
  --plain                plain progress lines even on a terminal (also when CI is set)
  --events <file>        also write the run as NDJSON events, each cell as it finishes (with its failing step
                         and transcript); - writes them to stdout and the text to stderr
  --list                 list the cells that would run (a --command/--url server is started and probed
                         first), and why others do not; run nothing
  -h, --help             this text

Exit codes: 0 all good; 1 an unexpected failure, a stale baseline entry, a broken scenario file, or nothing
tested; 2 bad usage or setup; 3 a server could not be started or reached; 130 interrupted.
`;

const OPTIONS = {
  server: { type: 'string', multiple: true },
  transport: { type: 'string', multiple: true },
  revision: { type: 'string', multiple: true },
  scenario: { type: 'string', multiple: true },
  command: { type: 'string' },
  url: { type: 'string' },
  name: { type: 'string' },
  jobs: { type: 'string' },
  'startup-timeout': { type: 'string' },
  'timeout-scale': { type: 'string' },
  baseline: { type: 'string' },
  'no-baseline': { type: 'boolean' },
  registry: { type: 'string' },
  'scenarios-dir': { type: 'string' },
  out: { type: 'string' },
  'no-html': { type: 'boolean' },
  junit: { type: 'string' },
  'official-results': { type: 'string' },
  official: { type: 'boolean' },
  'official-client': { type: 'string' },
  plain: { type: 'boolean' },
  events: { type: 'string' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known option closest to a mistyped one, if it is close enough to be what was meant. */
export function closestOption(given: string): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0]!;
  let best: { option: string; score: number } | undefined;
  for (const option of Object.keys(OPTIONS)) {
    const score = distance(name, option);
    if (best === undefined || score < best.score) best = { option, score };
  }
  return best && best.score <= Math.max(2, Math.floor(name.length / 3)) ? `--${best.option}` : undefined;
}

/** One line for a command line Node's parser refused (its own messages are long and generic). */
function usageMessage(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const suggestion = closestOption(quoted);
    return `unknown option ${quoted}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument '${quoted}' (options start with --; quote a --command line as one argument)`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return error.message.split('.')[0]!.replace(/^Option /, 'option ');
  return error.message;
}

function list(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** Parses argv (without node and the script). Throws {@link UsageError} for unknown or invalid options. */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error));
  }
  const v = parsed.values;
  const transports = list(v.transport);
  const expandedTransports = expandTransports(transports);
  const unknownTransport = transports.find((name) => expandTransports([name]).length === 0);
  if (unknownTransport)
    throw new UsageError(
      `unknown transport '${unknownTransport}' (known: ${[...TRANSPORTS, ...Object.keys(TRANSPORT_FAMILIES).filter((f) => f !== 'all')].join(', ')})`,
    );
  const revisions = list(v.revision);
  const unknownRevision = revisions.find((name) => expandRevisions([name]).length === 0);
  if (unknownRevision)
    throw new UsageError(`unknown revision '${unknownRevision}' (known: ${expandRevisions('all').join(', ')}, legacy, modern)`);
  const jobs = v.jobs === undefined ? defaultJobs() : Number(v.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new UsageError('--jobs takes an integer from 1 to 64');
  const timeoutScale = v['timeout-scale'] === undefined ? 1 : Number(v['timeout-scale']);
  if (!(timeoutScale > 0 && timeoutScale <= 100)) throw new UsageError('--timeout-scale takes a number above 0 (up to 100)');
  const startupSeconds = v['startup-timeout'] === undefined ? DEFAULT_STARTUP_TIMEOUT_S : Number(v['startup-timeout']);
  if (!(startupSeconds > 0 && startupSeconds <= 3600)) throw new UsageError('--startup-timeout takes seconds above 0 (up to 3600)');
  if (v.command !== undefined && v.url !== undefined) throw new UsageError('give --command or --url, not both');
  if (v['official-client'] !== undefined && !v.official) throw new UsageError('--official-client needs --official');
  if (v.official && v['official-results'] !== undefined) throw new UsageError('give --official or --official-results, not both');
  const name = v.name ?? 'external';
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new UsageError('--name takes a kebab-case id');
  if (v.events === '') throw new UsageError('--events takes a file, or - for standard output');
  return {
    servers: list(v.server),
    transports: expandedTransports,
    revisions: revisions.length === 0 ? [] : expandRevisions(revisions),
    scenarios: list(v.scenario),
    ...(v.command === undefined ? {} : { command: v.command }),
    ...(v.url === undefined ? {} : { url: v.url }),
    name,
    jobs,
    ...(v.baseline === undefined ? {} : { baseline: v.baseline }),
    noBaseline: v['no-baseline'] ?? false,
    ...(v.out === undefined ? {} : { out: v.out }),
    html: !(v['no-html'] ?? false),
    list: v.list ?? false,
    ...(v.registry === undefined ? {} : { registry: v.registry }),
    ...(v['scenarios-dir'] === undefined ? {} : { scenariosDir: v['scenarios-dir'] }),
    timeoutScale,
    startupTimeoutMs: Math.round(startupSeconds * 1000),
    ...(v.junit === undefined ? {} : { junit: v.junit }),
    ...(v['official-results'] === undefined ? {} : { officialResults: v['official-results'] }),
    official: v.official ?? false,
    ...(v['official-client'] === undefined ? {} : { officialClient: v['official-client'] }),
    plain: v.plain ?? false,
    ...(v.events === undefined ? {} : { events: v.events }),
    help: v.help ?? false,
  };
}
