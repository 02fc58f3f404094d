// What the bench runs: the implementations (rows: a client driving a server in one era) and the job each
// repetition gives them.
import type { ClientKind } from './clients/session.js';
import type { Era } from './wire.js';

/** The fixture servers (apps/bench/src/servers). */
export type ServerKind = 'baseline' | 'wiremcp' | 'sdk-v1' | 'sdk-v2';

/** One implementation measured: a client driving a server over stdio in one era. */
export interface Row {
  /** `client/server`, with `@2026` for the modern era. */
  id: string;
  client: ClientKind;
  server: ServerKind;
  era: Era;
  /** The row this one's ratios are computed against: the baseline of the same era. */
  reference: string;
  /** What the row isolates: the server (raw client), a client with its own server, or the client (baseline server). */
  group: 'server' | 'pair' | 'client';
}

function row(client: ClientKind, server: ServerKind, era: Era): Row {
  const suffix = era === 'modern' ? '@2026' : '';
  const raw = client === 'raw' || client === 'raw-each';
  const group = raw ? 'server' : server === 'baseline' ? 'client' : 'pair';
  // A raw-each row is compared with the baseline under the same client kind.
  const reference = `${client === 'raw-each' ? 'raw-each' : 'raw'}/baseline${suffix}`;
  return { id: `${client}/${server}${suffix}`, client, server, era, reference, group };
}

/** Every row, in table order. */
export const ROWS: readonly Row[] = [
  row('raw', 'baseline', 'legacy'),
  row('raw', 'wiremcp', 'legacy'),
  row('raw', 'sdk-v1', 'legacy'),
  row('raw', 'sdk-v2', 'legacy'),
  row('raw', 'baseline', 'modern'),
  row('raw', 'wiremcp', 'modern'),
  row('raw', 'sdk-v2', 'modern'),
  row('raw-each', 'baseline', 'legacy'),
  row('raw-each', 'wiremcp', 'legacy'),
  row('raw-each', 'sdk-v1', 'legacy'),
  row('raw-each', 'sdk-v2', 'legacy'),
  row('raw-each', 'baseline', 'modern'),
  row('raw-each', 'wiremcp', 'modern'),
  row('raw-each', 'sdk-v2', 'modern'),
  row('wiremcp', 'wiremcp', 'legacy'),
  row('sdk-v1', 'sdk-v1', 'legacy'),
  row('sdk-v2', 'sdk-v2', 'legacy'),
  row('wiremcp', 'wiremcp', 'modern'),
  row('sdk-v2', 'sdk-v2', 'modern'),
  row('wiremcp', 'baseline', 'legacy'),
  row('sdk-v1', 'baseline', 'legacy'),
  row('sdk-v2', 'baseline', 'legacy'),
  row('wiremcp', 'baseline', 'modern'),
  row('sdk-v2', 'baseline', 'modern'),
];

/** A readable name of a row for the tables. */
export function rowLabel(row: Row): string {
  const name = (kind: string): string =>
    kind === 'raw'
      ? 'raw client'
      : kind === 'raw-each'
        ? 'raw client (a write per request)'
        : kind === 'baseline'
          ? 'baseline'
          : kind === 'sdk-v1'
            ? 'SDK v1'
            : kind === 'sdk-v2'
              ? 'SDK v2'
              : 'wiremcp';
  const era = row.era === 'modern' ? ' (2026-07-28)' : '';
  return `${name(row.client)} → ${name(row.server)}${era}`;
}

/** The sizes of one repetition's work for one row. */
export interface Workload {
  /** Cold starts per repetition (the repetition's value is their median). */
  coldStarts: number;
  /** Calls per tool of the untimed warm-up (sequential), then ms per tool of pipelined warm-up. */
  warmUpCalls: number;
  warmUpPipeMs: number;
  /** Sequential round trips per tool, bounded also in time. */
  seqCalls: number;
  seqMaxMs: number;
  /** Pipelined phase per tool: requests in flight, duration, and a cap on the calls. */
  inFlight: number;
  pipeMs: number;
  pipeMaxCalls: number;
}

/** The full run (about 9 minutes on the 2-core bench machine, 7 repetitions). */
export const FULL: Workload = {
  coldStarts: 3,
  warmUpCalls: 300,
  warmUpPipeMs: 300,
  seqCalls: 20_000,
  seqMaxMs: 600,
  inFlight: 64,
  pipeMs: 800,
  pipeMaxCalls: 400_000,
};

/** `--quick`: a smoke run of the same code paths (about a minute). */
export const QUICK: Workload = {
  coldStarts: 1,
  warmUpCalls: 100,
  warmUpPipeMs: 100,
  seqCalls: 300,
  seqMaxMs: 300,
  inFlight: 64,
  pipeMs: 300,
  pipeMaxCalls: 100_000,
};
