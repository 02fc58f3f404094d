/**
 * Runs the matrix: cells that do not run get their result at once; the others are grouped into units — a lane
 * (cells that share a stdio process, in order) or a single cell — and `jobs` workers take units, longest first.
 * Once aborted, no new unit starts (running cells finish; each stops its own server).
 */
import type { CellRunner, Host } from '../hosts/host.js';
import type { Cell, CellResult } from './cell-types.js';
import { isolationOf, type LaneRole } from './isolation.js';
import { staticResult } from './run-cell.js';

/** What {@link runMatrix} needs. */
export interface MatrixRun {
  /** The host of each server × transport, by `${target.id}|${transport.id}`. */
  readonly hosts: ReadonlyMap<string, Host>;
  readonly jobs: number;
  readonly run: CellRunner;
  readonly signal?: AbortSignal;
}

/** Cells one worker runs in one go: a lane segment (one process, in order), or a single cell. */
export interface Unit {
  /** The host key (`server|transport`). */
  readonly host: string;
  readonly items: ReadonlyArray<{ readonly index: number; readonly cell: Cell }>;
  /** lane: a segment of a stdio lane; fresh: a cell with a process of its own; shared: an HTTP cell on a shared server. */
  readonly kind: 'lane' | 'fresh' | 'shared';
}

/** The host key of a cell. */
export function hostKey(cell: Pick<Cell, 'target' | 'transport'>): string {
  return `${cell.target.id}|${cell.transport.id}`;
}

/**
 * Lane bodies longer than this are split (each part starts its own process), so that a run with few lanes still
 * keeps every worker busy: about three units per worker.
 */
function laneLimit(laneCells: number, jobs: number): number {
  return Math.max(8, Math.ceil(laneCells / (jobs * 3)));
}

type Item = { readonly index: number; readonly cell: Cell; readonly exactIds: boolean };

/**
 * Cuts a lane into segments, one process each: a segment is `[pre…, head?, body…, tail?, end?]`, or `[pre…, solo]`.
 * Each head needs a new process, and each tail, end or solo is the last use of one (an end may follow a tail), so
 * there are as many segments as heads, tails and ends need (or as a long body needs); the body is shared out
 * between them, and the `pre` cells (which leave a process as they found it) go in front of segments whose first
 * cell does not insist on being first.
 */
function segmentsOf(lane: Record<LaneRole, Item[]>, limit: number): Item[][] {
  const needed = [lane.head.length, lane.tail.length, lane.end.length, Math.ceil(lane.body.length / limit), lane.body.length > 0 ? 1 : 0];
  const count = Math.max(...needed);
  const size = Math.ceil(lane.body.length / Math.max(1, count));
  const segments: Item[][] = lane.solo.map((solo) => [solo]);
  for (let segment = 0; segment < count; segment += 1) {
    segments.push([
      ...lane.head.slice(segment, segment + 1),
      ...lane.body.slice(segment * size, (segment + 1) * size),
      ...lane.tail.slice(segment, segment + 1),
      ...lane.end.slice(segment, segment + 1),
    ]);
  }
  const open = segments.filter((items) => items.length > 0 && !items[0]!.exactIds);
  if (open.length === 0 && lane.pre.length > 0) return [...segments, lane.pre];
  lane.pre.forEach((item, index) => open[index % open.length]!.unshift(item));
  return segments.filter((items) => items.length > 0);
}

/** Groups the runnable cells into units, longest first; `done` receives the results of the cells that do not run. */
export function planUnits(cells: readonly Cell[], jobs: number, done: (index: number, result: CellResult) => void = () => {}): Unit[] {
  const lanes = new Map<string, Record<LaneRole, Item[]>>();
  const singles: Unit[] = [];
  cells.forEach((cell, index) => {
    const fixed = staticResult(cell);
    if (fixed) return done(index, fixed);
    const host = hostKey(cell);
    const isolation = isolationOf(cell);
    if (isolation.kind === 'shared' && isolation.lane !== undefined) {
      const lane = lanes.get(isolation.lane) ?? { pre: [], head: [], solo: [], body: [], tail: [], end: [] };
      lane[isolation.role].push({ index, cell, exactIds: isolation.exactIds });
      lanes.set(isolation.lane, lane);
    } else {
      singles.push({ host, items: [{ index, cell }], kind: isolation.kind });
    }
  });
  const bodyCells = [...lanes.values()].reduce((sum, lane) => sum + lane.body.length, 0);
  const limit = laneLimit(bodyCells, jobs);
  const laneUnits: Unit[] = [];
  for (const lane of lanes.values()) {
    for (const items of segmentsOf(lane, limit)) laneUnits.push({ host: hostKey(items[0]!.cell), items, kind: 'lane' });
  }
  laneUnits.sort((a, b) => b.items.length - a.items.length);
  return [...laneUnits, ...singles];
}

/** Runs the cells; `onResult` sees each result as it comes. Results come back in cell order (cells never started are left out). */
export async function runMatrix(
  cells: readonly Cell[],
  matrix: MatrixRun,
  onResult: (result: CellResult, cell: Cell) => void,
): Promise<CellResult[]> {
  const results: (CellResult | undefined)[] = new Array(cells.length);
  const done = (index: number, result: CellResult): void => {
    results[index] = result;
    onResult(result, cells[index]!);
  };
  const units = planUnits(cells, matrix.jobs, done);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < units.length && !matrix.signal?.aborted) {
      const unit = units[next++]!;
      const host = matrix.hosts.get(unit.host);
      if (!host) throw new Error(`no host for ${unit.host}`);
      if (unit.kind === 'fresh') {
        const { index, cell } = unit.items[0]!;
        done(index, await host.runFresh(cell, matrix.run));
        continue;
      }
      let position = 0;
      await host.runShared(
        unit.items.map((item) => item.cell),
        matrix.run,
        (result) => done(unit.items[position++]!.index, result),
        matrix.signal,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(matrix.jobs, units.length)) }, worker));
  return results.filter((result): result is CellResult => result !== undefined);
}
