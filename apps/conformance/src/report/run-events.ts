/**
 * The run as a stream of events (`--events <file|->`), for a program that shows the run while it happens (the
 * inspector's Conformance tab): one JSON object per line — `start` once the matrix is planned, `cell` as each cell
 * finishes (its result, with the failing step and its transcript), `end` with the exit code and the counts by status.
 * A consumer never has to parse the text output.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { CELL_STATUSES, type CellResult, type CellStatus } from '../runner/cell-types.js';

/** One event of the run. */
export type RunEvent =
  | { readonly type: 'start'; readonly cells: number; readonly runnable: number; readonly targets: readonly string[] }
  | { readonly type: 'cell'; readonly result: CellResult; readonly expected: boolean }
  | { readonly type: 'end'; readonly exitCode: number; readonly counts: Readonly<Record<CellStatus, number>>; readonly aborted: boolean };

/** Where events go. */
export interface EventSink {
  write(event: RunEvent): void;
  close(): void;
}

/** Counts of `results` by status, every status present (0 when none). */
export function countByStatus(results: readonly CellResult[]): Record<CellStatus, number> {
  const counts = Object.fromEntries(CELL_STATUSES.map((status) => [status, 0])) as Record<CellStatus, number>;
  for (const result of results) counts[result.status] += 1;
  return counts;
}

/**
 * The sink for `--events <target>`: `-` is standard output (written synchronously: a pipe on Linux), anything else
 * a file created (or truncated) now. Each event is one line, written whole.
 */
export function openEventSink(target: string, stdout: { write(text: string): unknown } = process.stdout): EventSink {
  if (target === '-') return { write: (event) => void stdout.write(`${JSON.stringify(event)}\n`), close: () => {} };
  const fd = openSync(target, 'w');
  let open = true;
  return {
    write: (event) => {
      if (open) writeSync(fd, `${JSON.stringify(event)}\n`);
    },
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
