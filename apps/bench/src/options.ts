// Command-line options of the bench and the selection they make.
import { parseBenchFlags, type BenchFlags } from './bench-flags.js';
import { METRICS } from './metrics.js';
import type { Row } from './plan.js';

/** Metric groups `--only` accepts. */
export const METRIC_GROUPS = ['seq', 'pipe', 'cpu', 'cold', 'rss', 'micro'] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

/** Parsed options: the flags every bench command shares (bench-flags.ts), nothing else. */
export type CliOptions = BenchFlags;

export const USAGE = `Usage: node apps/bench/dist/cli.js [options]   (or: npm run bench -- [options])

Runs the side-by-side benchmarks (stdio: wiremcp, the official SDK v1 and v2, the hand-written baseline;
raw and SDK clients) and the micro-benchmarks, then writes a markdown table and JSON.

Options:
  --quick               a short smoke run (fewer repetitions, shorter phases)
  --only <list>         comma-separated; repeatable. Metric groups: ${METRIC_GROUPS.join(', ')}.
                        Anything else selects implementations whose id contains it (e.g. wiremcp, sdk-v2,
                        raw/, @2026); the baselines are always included, ratios need them.
  --repetitions <n>     interleaved repetitions (default 5; 2 with --quick)
  --no-pin              do not run each driver and its server on one CPU (the default on Linux, with taskset)
  --out <dir>           where to write the results (default: see below)
  --help                this text

A full run (no --quick, no --only) writes apps/bench/results/latest.md and latest.json (committed; the
README links them); other runs write apps/bench/out/partial.md and .json (git-ignored).

Profiling: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node flags to every server
process; node apps/bench/dist/profile-summary.js <file.cpuprofile> sums a profile up by origin and function.`;

/** Parses argv (without node and the script). Throws an Error with a readable message for bad input. */
export function parseOptions(argv: readonly string[]): CliOptions {
  return parseBenchFlags(argv, { maxRepetitions: 50 });
}

/** What `--only` selects: rows, and which parts of the measurement run. */
export interface Selection {
  rows: Row[];
  cold: boolean;
  load: boolean;
  micro: boolean;
}

/** Applies `--only` filters to the rows and metric groups. Throws when a filter matches nothing. */
export function select(allRows: readonly Row[], only: readonly string[]): Selection {
  const groups = only.filter((f): f is MetricGroup => (METRIC_GROUPS as readonly string[]).includes(f));
  const rowFilters = only.filter((f) => !(METRIC_GROUPS as readonly string[]).includes(f));
  let rows = [...allRows];
  if (rowFilters.length > 0) {
    const wanted = allRows.filter((row) => rowFilters.some((f) => row.id.includes(f)));
    if (wanted.length === 0)
      throw new Error(`--only ${rowFilters.join(',')} matches no implementation (ids: ${allRows.map((r) => r.id).join(', ')})`);
    const ids = new Set(wanted.flatMap((row) => [row.id, row.reference]));
    rows = allRows.filter((row) => ids.has(row.id));
  }
  const all = groups.length === 0;
  const has = (group: MetricGroup): boolean => all || groups.includes(group);
  return {
    rows,
    cold: has('cold') || has('rss'),
    load: has('seq') || has('pipe') || has('cpu'),
    micro: has('micro'),
  };
}

/** The metrics a selection produces (for the JSON's list). */
export function selectedMetrics(selection: Selection): typeof METRICS {
  return METRICS.filter((m) => (m.phase === 'cold' ? selection.cold : selection.load));
}
