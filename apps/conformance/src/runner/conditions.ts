/**
 * Which steps of a scenario run in a cell: a step's `when` (era, revisions, transports, features present and absent) must hold.
 */
import { eraOf, revisionMatches } from '../scenario/selectors.js';
import type { Step, StepCondition } from '../scenario/scenario-types.js';
import { transportFamily } from '../scenario/scenario-types.js';
import type { Cell } from './cell-types.js';

/** True when the condition holds in the cell (no condition always holds). */
export function conditionHolds(condition: StepCondition | undefined, cell: Pick<Cell, 'revision' | 'transport' | 'features'>): boolean {
  if (!condition) return true;
  if (condition.era && condition.era !== eraOf(cell.revision)) return false;
  if (condition.revisions && !condition.revisions.some((selector) => revisionMatches(selector, cell.revision))) return false;
  if (condition.transports) {
    const family = transportFamily(cell.transport.id);
    if (!condition.transports.includes(cell.transport.id) && !condition.transports.includes(family)) return false;
  }
  if (condition.features && !condition.features.every((feature) => cell.features.has(feature))) return false;
  if (condition.withoutFeatures?.some((feature) => cell.features.has(feature))) return false;
  return true;
}

/** The steps that run in the cell, with their index in the scenario. */
export function applicableSteps(
  cell: Pick<Cell, 'scenario' | 'revision' | 'transport' | 'features'>,
): Array<{ index: number; step: Step }> {
  return cell.scenario.steps.flatMap((step, index) => (conditionHolds(step.when, cell) ? [{ index, step }] : []));
}
