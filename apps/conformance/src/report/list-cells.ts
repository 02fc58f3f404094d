/**
 * `--list`: the cells a run would have, what each would do (run on a shared or a fresh process) or why it would
 * not run (not applicable, skipped, in error), and totals.
 */
import type { Cell } from '../runner/cell-types.js';
import { isolationOf } from '../runner/isolation.js';
import { staticResult } from '../runner/run-cell.js';
import { planUnits } from '../runner/schedule.js';

/** The listing, one line per cell, then the totals. */
export function formatCellList(cells: readonly Cell[], scenarioCount: number, targetCount: number, jobs: number): string {
  const lines: string[] = [];
  let shared = 0;
  let fresh = 0;
  const lanes = new Set<string>();
  const other = { 'not-applicable': 0, skip: 0, error: 0 } as Record<string, number>;
  for (const cell of cells) {
    const where = `${cell.scenario.area}/${cell.scenario.id}  ${cell.target.id}  ${cell.transport.id}  ${cell.revision}`;
    const fixed = staticResult(cell);
    if (fixed) {
      other[fixed.status] = (other[fixed.status] ?? 0) + 1;
      lines.push(`${where}  ${fixed.status}: ${fixed.reason ?? ''}`);
      continue;
    }
    const isolation = isolationOf(cell);
    if (isolation.kind === 'fresh') {
      fresh += 1;
      lines.push(`${where}  run (fresh process: ${isolation.reason})`);
    } else {
      shared += 1;
      if (isolation.lane !== undefined) lanes.add(isolation.lane);
      lines.push(`${where}  run (shared process${isolation.role === 'body' ? '' : `, ${isolation.role} of its lane`})`);
    }
  }
  const units = planUnits(cells, jobs);
  const processes = units.filter((unit) => unit.kind !== 'shared').length;
  const laneText = lanes.size > 0 ? ` in ${lanes.size} lane${lanes.size === 1 ? '' : 's'}` : '';
  lines.push(
    `${cells.length} cells: ${shared + fresh} to run (${shared} on shared processes${laneText}, ${fresh} on fresh processes; ` +
      `about ${processes} server process${processes === 1 ? '' : 'es'}), ` +
      `${other['not-applicable']} not applicable, ${other['skip']} skipped, ${other['error']} errors; ${scenarioCount} scenarios, ${targetCount} servers`,
  );
  return `${lines.join('\n')}\n`;
}
