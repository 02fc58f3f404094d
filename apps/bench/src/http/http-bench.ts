// `npm run bench -- http`: Streamable HTTP, side by side in one run — the hand-written node:http server, wiremcp,
// SDK v1 and SDK v2 (sessionful), SDK v2's createMcpHandler (stateless), driven by a raw client, and the client ↔
// server pairs (wiremcp, SDK v2) — in both eras. Interleaved repetitions (the order rotates by one row each time),
// each row in a driver process of its own, medians and per-repetition ratios. Writes results/http.md and .json
// (`--quick` or `--only`: out/http-partial.*).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchFlags, type BenchFlags } from '../bench-flags.js';
import { runIsolated } from '../run-driver.js';
import { clockTicks, commandLine, gitCommit, PACKAGE_ROOT, packageVersion, pinnedCpu } from '../run-env.js';
import { rotate } from '../stats.js';
import { HTTP_FULL, HTTP_QUICK, HTTP_ROWS, withAgainstRows, type HttpDriverResult, type HttpJob, type HttpRow } from './http-plan.js';
import { parseNodeList, resolveNode, withNodeRows, type NodeBinary } from './node-versions.js';
import { checkHttpTargets, renderHttpMarkdown, summarizeHttp, type HttpReport, type HttpRepetition } from './http-report.js';

const DRIVER = fileURLToPath(new URL('./http-driver.js', import.meta.url));
/** A driver that takes longer than this is killed with its server, and its repetition recorded as failed. */
const DRIVER_TIMEOUT_MS = 90_000;

/** Usage of `npm run bench -- http`. */
export const HTTP_USAGE = `Usage: npm run bench -- http [--quick] [--repetitions <n>] [--only <ids>] [--no-pin] [--out <dir>] [--against <checkout>] [--node <majors>]

Streamable HTTP side by side: raw client → hand-written node:http / wiremcp / SDK v1 / SDK v2 sessionful /
SDK v2 createMcpHandler, and the wiremcp and SDK v2 client ↔ server pairs, in the 2025-11-25 (session) and
2026-07-28 (stateless) eras. Default: 3 repetitions (about 4 minutes); --quick: 1 short repetition.
--only takes comma-separated substrings of row ids (the baselines always run). --against <checkout> adds, after each
wiremcp server row, the same row served by the wiremcp server built in another checkout (its apps/bench built), and
compares each row of this build with that twin: before and after a change, side by side in one run.
--node 20,24 runs every row (driver and server) on each of these Node versions, a row's versions next to each other,
each compared with the baseline on the same version; a version other than this process's comes from the npm registry
once (npx -y -p node@24), its path kept in apps/bench/out/node-paths.json.`;

/** The shared flags, `--against` and `--node`. */
interface HttpOptions extends BenchFlags {
  against: string | undefined;
  node: number[] | undefined;
}

function parse(argv: readonly string[]): HttpOptions {
  let against: string | undefined;
  let node: number[] | undefined;
  try {
    const flags = parseBenchFlags(argv, {
      maxRepetitions: 20,
      values: { '--against': (value) => (against = value), '--node': (value) => (node = parseNodeList(value)) },
    });
    return { ...flags, against, node };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${HTTP_USAGE}`);
  }
}

function selectRows(only: readonly string[]): HttpRow[] {
  if (only.length === 0) return [...HTTP_ROWS];
  const wanted = HTTP_ROWS.filter((row) => only.some((f) => row.id.includes(f)));
  if (wanted.length === 0) throw new Error(`--only ${only.join(',')} matches no row (ids: ${HTTP_ROWS.map((r) => r.id).join(', ')})`);
  const ids = new Set(wanted.flatMap((row) => [row.id, row.reference]));
  return HTTP_ROWS.filter((row) => ids.has(row.id));
}

/**
 * A built bench server of the checkout at `dir` (`--against`; by default the wiremcp HTTP server); throws a readable
 * error when it is not built.
 */
export function againstScript(dir: string, file = 'apps/bench/dist/http/servers/wiremcp-http.js'): string {
  const script = resolve(dir, file);
  if (!existsSync(script)) throw new Error(`--against ${dir}: ${script} is missing (build that checkout first)`);
  return script;
}

/** How the other checkout is named in the table: its commit when it is a git checkout, else its path. */
export function againstName(dir: string): string {
  try {
    const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return `commit ${commit}`;
  } catch {
    return resolve(dir);
  }
}

/** Runs the HTTP bench with `argv` (after `http`); resolves with the exit code. */
export async function runHttpBench(argv: readonly string[]): Promise<number> {
  const options = parse(argv);
  if (options.help) {
    process.stdout.write(`${HTTP_USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const startLoad = loadavg();
  const selected = selectRows(options.only);
  const compared =
    options.against === undefined ? selected : withAgainstRows(selected, againstScript(options.against), againstName(options.against));
  const nodes: NodeBinary[] | undefined = options.node?.map((major) => resolveNode(major, join(PACKAGE_ROOT, 'out', 'node-paths.json')));
  const rows = nodes === undefined ? compared : withNodeRows(compared, nodes);
  const workload = options.quick ? HTTP_QUICK : HTTP_FULL;
  const repetitions = options.repetitions ?? (options.quick ? 1 : 3);
  const ticks = clockTicks();
  const cpu = pinnedCpu(options.pin, cpus().length);
  const full = !options.quick && options.only.length === 0 && options.against === undefined;
  const outDir = resolve(options.out ?? join(PACKAGE_ROOT, full ? 'results' : 'out'));
  const baseName = full ? 'http' : 'http-partial';
  const log = (line: string): boolean => process.stderr.write(`${line}\n`);
  log(
    `bench http: ${rows.length} rows × ${repetitions} repetitions${cpu === undefined ? ', not pinned' : `, each driver and its server on CPU ${cpu}`}`,
  );

  const records: HttpRepetition[] = [];
  for (let index = 0; index < repetitions; index++) {
    const order = rotate(rows, index);
    const record: HttpRepetition = { index, order: order.map((r) => r.id), loadAverage: loadavg(), results: {} };
    for (const row of order) {
      const t0 = performance.now();
      const job: HttpJob = { client: row.client, server: row.server, era: row.era, heap: row.heap, workload, clockTicksPerSec: ticks };
      if (row.serverScript !== undefined) job.serverScript = row.serverScript;
      if (row.serverArgs !== undefined) job.serverArgs = row.serverArgs;
      try {
        record.results[row.id] = await runIsolated<HttpDriverResult>(DRIVER, [JSON.stringify(job)], {
          timeoutMs: DRIVER_TIMEOUT_MS,
          cpu,
          execPath: row.node?.execPath,
        });
        log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(30)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        record.results[row.id] = { error: message };
        log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(30)} FAILED: ${message.split('\n').slice(0, 6).join(' / ')}`);
      }
    }
    records.push(record);
  }

  const cpuInfo = cpus();
  const report: HttpReport = {
    meta: {
      date: new Date().toISOString(),
      command: commandLine(),
      wallTimeSec: (performance.now() - started) / 1000,
      node: nodes === undefined ? process.versions.node : nodes.map((n) => n.version).join(' and ') + ' (each row names its Node)',
      machine: `${type()} ${release()} · ${cpuInfo[0]?.model.trim() ?? 'unknown CPU'}, ${cpuInfo.length} cores`,
      pinnedCpu: cpu,
      loadAverage: { start: startLoad, end: loadavg() },
      gitCommit: gitCommit(),
      repetitions,
      quick: options.quick,
      workload,
      packages: Object.fromEntries(
        [
          '@modelcontextprotocol/sdk',
          '@modelcontextprotocol/server',
          '@modelcontextprotocol/client',
          '@modelcontextprotocol/node',
          'zod',
        ].map((n) => [n, packageVersion(n)]),
      ),
    },
    rows,
    summary: summarizeHttp(rows, records),
    targets:
      nodes === undefined
        ? checkHttpTargets(records, new Set(rows.map((r) => r.id)))
        : nodes.flatMap((n) => checkHttpTargets(records, new Set(rows.map((r) => r.id)), `:node${n.major}`, `Node ${n.major}: `)),
    repetitions: records,
  };
  mkdirSync(outDir, { recursive: true });
  const markdown = renderHttpMarkdown(report);
  writeFileSync(join(outDir, `${baseName}.md`), markdown);
  writeFileSync(join(outDir, `${baseName}.json`), JSON.stringify(report, null, 1) + '\n');
  process.stdout.write(`${markdown}\n`);
  log(`bench http: wrote ${relative(process.cwd(), join(outDir, baseName))}.md and .json in ${Math.round(report.meta.wallTimeSec)} s`);
  return records.some((r) => Object.values(r.results).some((result) => 'error' in result)) ? 1 : 0;
}
