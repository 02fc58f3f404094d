/**
 * The command line of `wiremcp-conformance`.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { expandRevisions, expandTransports } from './scenario/selectors.js';
import type { TransportId } from './scenario/scenario-types.js';

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
  readonly plain: boolean;
  readonly help: boolean;
}

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
                         http-sse, or a family: stdio, http
  --revision <r>         2024-11-05 … 2026-07-28, or legacy / modern
  --scenario <glob>      scenario ids, area/id or areas; * is a wildcard (e.g. 'tools/*', '*cancel*')

Any server:
  --command "<cmd>"      a stdio server command line (quotes and backslashes as in a shell, no expansion)
  --url <url>            a Streamable HTTP endpoint (with --transport http-sse: the SSE endpoint)
  --name <id>            the id of that server in reports and baselines (default: external)
                         Its revisions and capabilities are probed; gated scenarios are skipped with a reason.

Run:
  --jobs <n>             cells in parallel (default: the number of CPUs)
  --timeout-scale <x>    multiply every expect timeout (default 1)
  --baseline <file>      expected failures (default: apps/conformance/baseline.yaml)
  --no-baseline          use no baseline
  --registry <file>      the server registry (default: apps/conformance/servers.yaml)
  --scenarios-dir <dir>  where scenarios live (default: apps/conformance/scenarios)

Output:
  --out <dir>            where results.json and report.html go (default: apps/conformance/out)
  --no-html              do not write report.html
  --plain                plain progress lines even on a terminal (also when CI is set)
  --list                 list the cells that would run (and why some are skipped), run nothing
  -h, --help             this text
`;

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
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string', multiple: true },
        transport: { type: 'string', multiple: true },
        revision: { type: 'string', multiple: true },
        scenario: { type: 'string', multiple: true },
        command: { type: 'string' },
        url: { type: 'string' },
        name: { type: 'string' },
        jobs: { type: 'string' },
        'timeout-scale': { type: 'string' },
        baseline: { type: 'string' },
        'no-baseline': { type: 'boolean' },
        registry: { type: 'string' },
        'scenarios-dir': { type: 'string' },
        out: { type: 'string' },
        'no-html': { type: 'boolean' },
        plain: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  const transports = list(v.transport);
  const expandedTransports = expandTransports(transports);
  const unknownTransport = transports.find((name) => expandTransports([name]).length === 0);
  if (unknownTransport) throw new UsageError(`unknown transport '${unknownTransport}'`);
  const revisions = list(v.revision);
  const unknownRevision = revisions.find((name) => expandRevisions([name]).length === 0);
  if (unknownRevision)
    throw new UsageError(`unknown revision '${unknownRevision}' (known: ${expandRevisions('all').join(', ')}, legacy, modern)`);
  const jobs = v.jobs === undefined ? availableParallelism() : Number(v.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new UsageError('--jobs takes an integer from 1 to 64');
  const timeoutScale = v['timeout-scale'] === undefined ? 1 : Number(v['timeout-scale']);
  if (!(timeoutScale > 0 && timeoutScale <= 100)) throw new UsageError('--timeout-scale takes a number above 0 (up to 100)');
  if (v.command !== undefined && v.url !== undefined) throw new UsageError('give --command or --url, not both');
  const name = v.name ?? 'external';
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new UsageError('--name takes a kebab-case id');
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
    plain: v.plain ?? false,
    help: v.help ?? false,
  };
}
