// What the HTTP bench runs: its rows (a client driving a server in one era), the job a driver is given, the sizes
// of the work, and what a driver prints.
import type { PhaseResult } from '../job.js';
import type { Era } from '../wire.js';
import type { PairClientKind } from './pair-clients.js';

/** The HTTP fixture servers (src/http/servers). */
export type HttpServerKind = 'baseline' | 'wiremcp' | 'sdk-v1' | 'sdk-v2' | 'sdk-v2-stateless';

/** The script of each server. */
export const HTTP_SERVER_FILES: Readonly<Record<HttpServerKind, string>> = {
  baseline: 'baseline-http.js',
  wiremcp: 'wiremcp-http.js',
  'sdk-v1': 'sdk-v1-http.js',
  'sdk-v2': 'sdk-v2-http.js',
  'sdk-v2-stateless': 'sdk-v2-stateless-http.js',
};

/** The clients: the raw node:http client (server rows) or an MCP client (pair rows). */
export type HttpClientKind = 'raw' | PairClientKind;

/** One row; its ratios are against `reference` (the raw client → hand-written server of the same era). */
export interface HttpRow {
  id: string;
  label: string;
  client: HttpClientKind;
  server: HttpServerKind;
  era: Era;
  reference: string;
  /** Measure the heap of an idle legacy session (raw client, sessionful servers). */
  heap: boolean;
  /** The server's script when it is not this checkout's (`--against`: the wiremcp server of another build). */
  serverScript?: string;
  /** Arguments of the server's script. */
  serverArgs?: string[];
  /** The node binary the row's driver and server run on (`--node`), and its major version; default: the bench's. */
  node?: { major: number; execPath: string };
}

const NAMES: Record<HttpClientKind | HttpServerKind, string> = {
  raw: 'raw client',
  baseline: 'hand-written node:http',
  wiremcp: 'wiremcp',
  'sdk-v1': 'SDK v1',
  'sdk-v2': 'SDK v2',
  'sdk-v2-stateless': 'SDK v2 createMcpHandler',
};

function row(client: HttpClientKind, server: HttpServerKind, era: Era): HttpRow {
  const suffix = era === 'modern' ? '@2026' : '';
  const label = `${NAMES[client]} → ${NAMES[server]} (${era === 'modern' ? '2026-07-28, stateless' : '2025-11-25, session'})`;
  const heap = client === 'raw' && era === 'legacy' && server !== 'sdk-v2-stateless';
  return { id: `${client}/${server}${suffix}`, label, client, server, era, reference: `raw/baseline${suffix}`, heap };
}

/** Every row, in table order. */
export const HTTP_ROWS: readonly HttpRow[] = [
  row('raw', 'baseline', 'legacy'),
  row('raw', 'wiremcp', 'legacy'),
  row('raw', 'sdk-v1', 'legacy'),
  row('raw', 'sdk-v2', 'legacy'),
  row('raw', 'baseline', 'modern'),
  row('raw', 'wiremcp', 'modern'),
  row('raw', 'sdk-v2-stateless', 'modern'),
  row('wiremcp', 'wiremcp', 'legacy'),
  row('sdk-v2', 'sdk-v2', 'legacy'),
  row('wiremcp', 'wiremcp', 'modern'),
  row('sdk-v2', 'sdk-v2-stateless', 'modern'),
];

/** The sizes of one row's work in one repetition. */
export interface HttpWorkload {
  warmUpCalls: number;
  warmUpConcMs: number;
  seqCalls: number;
  seqMaxMs: number;
  /** Calls in flight in the concurrent phase (raw rows: one legacy session per worker). */
  concurrency: number;
  concMs: number;
  concMaxCalls: number;
  /** Idle legacy sessions opened to measure the heap per session. */
  heapSessions: number;
}

/**
 * The default run (3 interleaved repetitions of 11 rows: about 6 minutes on the 2-core bench machine). Each tool is
 * warmed with 2 s of 32-concurrent calls first, so that the measured phases see every server after V8 has
 * optimised its hot path (server CPU per call keeps falling for seconds after start; see the README).
 */
export const HTTP_FULL: HttpWorkload = {
  warmUpCalls: 200,
  warmUpConcMs: 2000,
  seqCalls: 5000,
  seqMaxMs: 600,
  concurrency: 32,
  concMs: 900,
  concMaxCalls: 100_000,
  heapSessions: 1000,
};

/** `--quick`: the same code paths, shorter. */
export const HTTP_QUICK: HttpWorkload = {
  warmUpCalls: 50,
  warmUpConcMs: 100,
  seqCalls: 300,
  seqMaxMs: 250,
  concurrency: 32,
  concMs: 300,
  concMaxCalls: 20_000,
  heapSessions: 200,
};

/** What the bench asks a driver to do. */
export interface HttpJob {
  client: HttpClientKind;
  server: HttpServerKind;
  era: Era;
  heap: boolean;
  workload: HttpWorkload;
  clockTicksPerSec: number;
  /** See {@link HttpRow.serverScript}. */
  serverScript?: string;
  serverArgs?: string[];
}

/** What a driver prints. */
export interface HttpDriverResult {
  /** `seq.echo`, `conc.echo`, `seq.conjugate`, `conc.conjugate`. */
  phases: Record<string, PhaseResult>;
  heapPerSessionBytes?: number;
  /** Full (old-generation) collections of the server during the measured phases. */
  fullCollections?: number;
  /** Calls made in the measured phases. */
  measuredCalls?: number;
}

/**
 * The rows of `--against <checkout>`: after each wiremcp server row, its twin served by the other checkout's built
 * wiremcp server (`id~against`, its ratios to the baseline), and the row itself then compared with its twin, so its
 * ratio column reads as this build against the other, per repetition, in one interleaved run.
 */
export function withAgainstRows(rows: readonly HttpRow[], script: string, name: string): HttpRow[] {
  const out: HttpRow[] = [];
  for (const row of rows) {
    if (row.server !== 'wiremcp') {
      out.push(row);
      continue;
    }
    const twin: HttpRow = { ...row, id: `${row.id}~against`, label: `${row.label} [${name}]`, serverScript: script };
    out.push({ ...row, label: `${row.label} [this build]`, reference: twin.id }, twin);
  }
  return out;
}
