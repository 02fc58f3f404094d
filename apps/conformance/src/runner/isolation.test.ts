import { expect, test } from 'vitest';
import { DEFAULT_REGISTRY, SCENARIOS_DIR } from '../paths.js';
import { loadScenarios } from '../scenario/load-scenarios.js';
import { loadRegistry } from '../targets/registry.js';
import type { Target } from '../targets/target.js';
import type { Cell } from './cell-types.js';
import { isolationOf } from './isolation.js';
import { planMatrix } from './plan.js';
import { planUnits } from './schedule.js';

// The registry's reference servers, as if built (the plan only reads what they declare).
const targets: Target[] = loadRegistry(DEFAULT_REGISTRY)
  .filter((server) => server.isDefault)
  .map(({ target }) => {
    const { unavailable: _unavailable, ...available } = target;
    return available;
  });
const { scenarios } = loadScenarios(SCENARIOS_DIR);
const cells = planMatrix(scenarios, targets, {});

function isolation(scenario: string, revision: string, server = 'everything', transport = 'stdio-ndjson') {
  const cell = cells.find(
    (c) => c.scenario.id === scenario && c.revision === revision && c.target.id === server && c.transport.id === transport,
  );
  if (!cell) throw new Error(`no cell ${scenario} ${revision}`);
  return isolationOf(cell);
}

test('cells are placed by what they need of their process', () => {
  expect(isolation('tools-list', '2025-11-25')).toMatchObject({
    kind: 'shared',
    role: 'body',
    lane: 'everything|stdio-ndjson|2025-11-25|{}',
  });
  expect(isolation('fixture-sampling', '2025-11-25')).toMatchObject({
    kind: 'shared',
    role: 'body',
    lane: expect.stringContaining('"sampling"'),
  });
  expect(isolation('tools-list', '2026-07-28')).toMatchObject({ kind: 'shared', role: 'body', lane: 'everything|stdio-ndjson|2026-07-28' });
  // Before any session: pre; tests initialize itself: head; leaves the session half open: solo.
  expect(isolation('ping-before-initialize', '2025-06-18')).toMatchObject({ kind: 'shared', role: 'pre' });
  expect(isolation('initialize-negotiates-requested-version', '2025-06-18')).toMatchObject({ kind: 'shared', role: 'head' });
  expect(isolation('initialized-gets-no-response', '2025-06-18')).toMatchObject({ kind: 'shared', role: 'head' });
  expect(isolation('initialize-unknown-version', '2025-06-18')).toMatchObject({ kind: 'shared', role: 'solo' });
  // Changes what the server holds: tail; ends the process: end. Ids as written: a head with exact ids.
  expect(isolation('shutdown-on-stdin-close', '2024-11-05')).toMatchObject({ kind: 'shared', role: 'end' });
  expect(isolation('shutdown-on-stdin-close', '2026-07-28')).toMatchObject({ kind: 'shared', role: 'end' });
  expect(isolation('fixture-list-changed', '2025-03-26')).toMatchObject({ kind: 'shared', role: 'tail' });
  expect(isolation('request-id-types', '2025-03-26')).toMatchObject({ kind: 'shared', role: 'head', exactIds: true });
  // A legacy session on a modern process: a process of its own.
  expect(isolation('both-eras-on-one-connection', '2026-07-28')).toMatchObject({ kind: 'fresh' });
});

test('lane segments: pre cells, then at most one head, the body, at most one tail and one end; or pre cells and one solo', () => {
  const runnable = cells.filter((cell) => !cell.notApplicable && !cell.skip);
  const units = planUnits(cells, 2);
  const seen = units.flatMap((unit) => unit.items.map((item) => item.index));
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen.length).toBe(runnable.length);
  const rank = { pre: 0, head: 1, solo: 1, body: 2, tail: 3, end: 4 } as const;
  for (const unit of units.filter((u) => u.kind === 'lane')) {
    const roles = unit.items.map(({ cell }) => {
      const placed = isolationOf(cell as Cell);
      return placed.kind === 'shared' ? placed.role : 'fresh';
    });
    expect(roles).not.toContain('fresh');
    expect(roles.map((role) => rank[role as keyof typeof rank])).toEqual([...roles.map((role) => rank[role as keyof typeof rank])].sort());
    expect(roles.filter((role) => role === 'head' || role === 'solo').length).toBeLessThanOrEqual(1);
    expect(roles.filter((role) => role === 'tail').length).toBeLessThanOrEqual(1);
    expect(roles.filter((role) => role === 'end').length).toBeLessThanOrEqual(1);
    if (roles.includes('solo')) expect(roles.every((role) => role === 'pre' || role === 'solo')).toBe(true);
    const lanes = new Set(unit.items.map(({ cell }) => (isolationOf(cell) as { lane?: string }).lane));
    expect(lanes.size).toBe(1);
  }
  // Far fewer processes than cells.
  expect(units.filter((unit) => unit.kind !== 'shared').length).toBeLessThan(runnable.length / 5);
});
