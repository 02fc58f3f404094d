// What the overhead bench runs: its options, its rows (one server variant over one transport in one era) and the
// comparisons it reports (a variant against the same server with nothing switched on, and — with `--against` —
// this build against another build's server, nothing installed on either).
import { parseBenchFlags, type BenchFlags } from '../bench-flags.js';
import { HTTP_FULL, HTTP_QUICK, type HttpWorkload } from '../http/http-plan.js';
import { FULL, QUICK, type Workload } from '../plan.js';
import type { Era } from '../wire.js';

/** What a row switches on: nothing, tracing, metrics, or a rate limiter that never refuses (ops-variants.ts). */
export const OPS_VARIANTS = ['off', 'tracing', 'metrics', 'rate-limit'] as const;
export type OpsVariant = (typeof OPS_VARIANTS)[number];

/** The transports a row can use. */
export type OpsTransport = 'stdio' | 'http';

/** One row: the raw client driving one server variant over one transport in one era. */
export interface OpsRow {
  /** `stdio/tracing`, `http@2026/off`, `stdio/before` (`--against`). */
  id: string;
  label: string;
  transport: OpsTransport;
  era: Era;
  /** The variant, or `before`: the plain server of the checkout given to `--against`. */
  variant: OpsVariant | 'before';
  /** `--against-variants`: this variant as the checkout given to `--against` builds it (id `<this row's id>@before`). */
  before?: true;
}

/** A ratio the report gives: `row` ÷ `reference`, per repetition. */
export interface OpsComparison {
  label: string;
  row: string;
  reference: string;
}

/** Parsed options of `npm run bench -- ops`: the shared flags and `--against`. */
export interface OpsOptions extends BenchFlags {
  against: string | undefined;
  /** With `--against`: also run that checkout's variant rows, each compared with this build's. */
  againstVariants: boolean;
}

/** Usage of `npm run bench -- ops`. */
export const OPS_USAGE = `Usage: npm run bench -- ops [--quick] [--repetitions <n>] [--only <ids>] [--against <checkout> [--against-variants]]
                            [--no-pin] [--out <dir>]

What operating features cost, side by side in one run: the workload's wiremcp server with nothing switched on,
with OpenTelemetry tracing (a real SDK, spans batched to an exporter that drops them), with metrics (the
request histograms in a Prometheus registry) and with a rate limiter that never refuses, over stdio (raw client,
64 calls in flight) and Streamable HTTP (raw client, 32 concurrent), in both eras. Interleaved repetitions
(default 5; --quick: 3 with shorter phases); every ratio is computed within a repetition.
--against <checkout> adds the plain server of another built checkout (its apps/bench built) beside this build's:
e.g. the commit before middleware, to check that a server with no middleware installed costs what it did.
--against-variants also runs that checkout's tracing, metrics and rate-limit rows (its apps/bench/dist/ops built;
ids <row>@before) and compares each with this build's: what a change to one feature saves, side by side.
--only takes comma-separated substrings of row ids (stdio, http@2026, tracing, …); the plain rows they are
compared with always run. Writes apps/bench/results/ops.md and .json (with --only: apps/bench/out/ops-partial.*).`;

/** Parses argv (after `ops`); throws an Error with a readable message for bad input. */
export function parseOpsOptions(argv: readonly string[]): OpsOptions {
  // `--against-variants` takes no value; the shared parser knows only flags with one, so it is taken out first.
  const againstVariants = argv.includes('--against-variants');
  let against: string | undefined;
  const flags = parseBenchFlags(
    argv.filter((arg) => arg !== '--against-variants'),
    { maxRepetitions: 20, values: { '--against': (value) => (against = value) } },
  );
  if (againstVariants && against === undefined) throw new Error('--against-variants needs --against <checkout>');
  return { ...flags, against, againstVariants };
}

const TRANSPORT_ERAS: ReadonlyArray<readonly [OpsTransport, Era]> = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
  ['http', 'legacy'],
  ['http', 'modern'],
];

const VARIANT_NAMES: Record<OpsVariant | 'before', string> = {
  off: 'nothing switched on',
  tracing: 'tracing',
  metrics: 'metrics',
  'rate-limit': 'rate limiter (never refuses)',
  before: 'nothing switched on',
};

function prefix(transport: OpsTransport, era: Era): string {
  return `${transport}${era === 'modern' ? '@2026' : ''}`;
}

function describe(transport: OpsTransport, era: Era): string {
  return `${transport === 'stdio' ? 'stdio' : 'HTTP'} ${era === 'modern' ? '2026-07-28' : transport === 'stdio' ? '2025-11-25' : '2025-11-25 session'}`;
}

/**
 * Every row, in table order; `against` (the name of the other build, e.g. `commit 5231036`) adds its plain server
 * after each transport and era's plain row, and with `variants` its variant rows after this build's.
 */
export function opsRows(against?: string, variants = false): OpsRow[] {
  const rows: OpsRow[] = [];
  for (const [transport, era] of TRANSPORT_ERAS) {
    for (const variant of OPS_VARIANTS) {
      rows.push({
        id: `${prefix(transport, era)}/${variant}`,
        label: `${describe(transport, era)}: ${VARIANT_NAMES[variant]}`,
        transport,
        era,
        variant,
      });
      if (variant === 'off' && against !== undefined) {
        const label = `${describe(transport, era)}: ${VARIANT_NAMES.before} [${against}]`;
        rows.push({ id: `${prefix(transport, era)}/before`, label, transport, era, variant: 'before' });
      }
      if (variant !== 'off' && against !== undefined && variants) {
        const label = `${describe(transport, era)}: ${VARIANT_NAMES[variant]} [${against}]`;
        rows.push({ id: `${prefix(transport, era)}/${variant}@before`, label, transport, era, variant, before: true });
      }
    }
  }
  return rows;
}

/** The row a row is compared with: the plain server of the same transport and era (itself for the plain row). */
export function referenceOf(row: OpsRow): string {
  return `${prefix(row.transport, row.era)}/off`;
}

/** Applies `--only` (substrings of row ids); the plain rows the selected ones are compared with stay. */
export function selectOpsRows(rows: readonly OpsRow[], only: readonly string[]): OpsRow[] {
  if (only.length === 0) return [...rows];
  const wanted = rows.filter((row) => only.some((f) => row.id.includes(f)));
  if (wanted.length === 0)
    throw new Error(`--only ${only.join(',').slice(0, 80)} matches no row (ids: ${rows.map((r) => r.id).join(', ')})`);
  const ids = new Set(wanted.flatMap((row) => [row.id, referenceOf(row)]));
  return rows.filter((row) => ids.has(row.id));
}

/**
 * The comparisons of `rows`: each variant ÷ the plain server of its transport and era, and the plain server of this
 * build ÷ that of the other build (`before`), so that 1.00 means "costs nothing more".
 */
export function opsComparisons(rows: readonly OpsRow[]): OpsComparison[] {
  const ids = new Set(rows.map((r) => r.id));
  const out: OpsComparison[] = [];
  for (const row of rows) {
    const plain = referenceOf(row);
    if (row.variant === 'off' || !ids.has(plain)) continue;
    const where = describe(row.transport, row.era);
    if (row.before) {
      const mine = row.id.slice(0, -'@before'.length);
      if (ids.has(mine)) out.push({ label: `${where}: ${VARIANT_NAMES[row.variant]}, this build ÷ before`, row: mine, reference: row.id });
    } else if (row.variant === 'before')
      out.push({ label: `${where}: this build (no middleware installed) ÷ before`, row: plain, reference: row.id });
    else out.push({ label: `${where}: ${VARIANT_NAMES[row.variant]} ÷ nothing switched on`, row: row.id, reference: plain });
  }
  return out;
}

/**
 * The sizes of a row's work. `--quick` keeps 1 s of 32-concurrent warm-up per tool over HTTP: a server's CPU per call
 * falls for seconds after start while V8 optimises (see the README), and two variants measured on that slope would
 * compare their warm-ups.
 */
export function opsWorkloads(quick: boolean): { stdio: Workload; http: HttpWorkload } {
  if (!quick) return { stdio: FULL, http: HTTP_FULL };
  return { stdio: { ...QUICK, warmUpPipeMs: 300 }, http: { ...HTTP_QUICK, warmUpConcMs: 1000, concMs: 500 } };
}
