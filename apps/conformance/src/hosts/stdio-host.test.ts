import { afterEach, beforeAll, expect, test } from 'vitest';
import { join } from 'node:path';
import { DEFAULT_REGISTRY, PACKAGE_ROOT, SCENARIOS_DIR } from '../paths.js';
import type { Cell, CellResult } from '../runner/cell-types.js';
import { planMatrix } from '../runner/plan.js';
import { runCell } from '../runner/run-cell.js';
import { loadScenarios } from '../scenario/load-scenarios.js';
import { liveServerCount } from '../session/child-processes.js';
import { loadRegistry } from '../targets/registry.js';
import type { CellRunner } from './host.js';
import { StdioHost } from './stdio-host.js';

// The fixture server as built (tests that spawn servers use dist; the test command builds first).
const everything = loadRegistry(DEFAULT_REGISTRY).find((server) => server.target.id === 'everything')!.target;
const { scenarios } = loadScenarios(SCENARIOS_DIR);
const cells = planMatrix(scenarios, [everything], { transports: ['stdio-ndjson'], revisions: ['2025-06-18'] });
const run: CellRunner = (cell, session, context) => runCell(cell, session, context, { startupTimeoutMs: 30_000 });

beforeAll(() => {
  if (everything.unavailable) throw new Error(`${everything.unavailable}: build first (npm test builds before running vitest)`);
});

afterEach(() => {
  expect(liveServerCount()).toBe(0);
});

function pick(...ids: string[]): Cell[] {
  return ids.map((id) => cells.find((cell) => cell.scenario.id === id)!);
}

async function lane(...ids: string[]): Promise<{ results: CellResult[]; processes: number }> {
  const transport = everything.transports.find((t) => t.id === 'stdio-ndjson')!;
  if (transport.kind !== 'stdio') throw new Error('stdio expected');
  const host = new StdioHost(transport, { checkTimeoutMs: 5000 });
  const results: CellResult[] = [];
  await host.runShared(pick(...ids), run, (result) => results.push(result));
  return { results, processes: host.processCount() };
}

test('a lane runs on one process: before the session, its start, the body, then the cell that ends it', async () => {
  const { results, processes } = await lane(
    'ping-before-initialize',
    'initialize-negotiates-requested-version',
    'tools-list',
    'prompts-get-unknown',
    'request-id-types',
    'shutdown-on-stdin-close',
  );
  expect(results.map((result) => `${result.scenario} ${result.status} ${result.process}`)).toEqual([
    'ping-before-initialize pass fresh',
    'initialize-negotiates-requested-version pass shared',
    'tools-list pass shared',
    'prompts-get-unknown pass shared',
    // It must be first on its process (its ids go on the wire as written): a new process.
    'request-id-types pass fresh',
    'shutdown-on-stdin-close pass shared',
  ]);
  expect(processes).toBe(2);
});

test('a session left half open is not reused', async () => {
  const { results, processes } = await lane('initialize-unknown-version', 'tools-list');
  expect(results.map((result) => result.status)).toEqual(['pass', 'pass']);
  expect(processes).toBe(2);
});

test('after a cell that changes what the server holds, only a cell that ends the process may use it', async () => {
  const ended = await lane('tools-list', 'fixture-list-changed', 'shutdown-answers-in-flight-requests');
  expect(ended.results.map((result) => `${result.scenario} ${result.status}`)).toEqual([
    'tools-list pass',
    'fixture-list-changed pass',
    'shutdown-answers-in-flight-requests pass',
  ]);
  expect(ended.processes).toBe(1);
  const continued = await lane('fixture-list-changed', 'tools-list');
  expect(continued.results.map((result) => `${result.scenario} ${result.status} ${result.process}`)).toEqual([
    'fixture-list-changed pass fresh',
    'tools-list pass fresh',
  ]);
  expect(continued.processes).toBe(2);
});

test('a process whose cell failed is kept when it still answers and nothing of that cell arrives late', async () => {
  // The official everything server (npm) drops a line that is not JSON instead of answering -32700: parse-error fails.
  const official = loadRegistry(DEFAULT_REGISTRY).find((server) => server.target.id === 'official-everything')!.target;
  if (official.unavailable) throw new Error(official.unavailable);
  const officialCells = planMatrix(scenarios, [official], { transports: ['stdio-ndjson'], revisions: ['2025-06-18'] });
  const picked = ['parse-error', 'tools-list', 'ping'].map((id) => officialCells.find((cell) => cell.scenario.id === id)!);
  const transport = official.transports.find((t) => t.id === 'stdio-ndjson')!;
  if (transport.kind !== 'stdio') throw new Error('stdio expected');
  const host = new StdioHost(transport, { checkTimeoutMs: 5000 });
  const results: CellResult[] = [];
  await host.runShared(picked, run, (result) => results.push(result));
  expect(results.map((result) => `${result.scenario} ${result.status} ${result.process}`)).toEqual([
    'parse-error fail fresh',
    'tools-list pass shared',
    'ping pass shared',
  ]);
  expect(host.processCount()).toBe(1);
});

test('after a failing cell, a process that answers the check with an error is not kept', async () => {
  // A server that drops a line that is not JSON and answers every later request with an error (it lost its state).
  const transport = everything.transports.find((t) => t.id === 'stdio-ndjson')!;
  if (transport.kind !== 'stdio') throw new Error('stdio expected');
  const fixture = join(PACKAGE_ROOT, 'src', 'testing', 'breaks-after-garbage.mjs');
  const host = new StdioHost({ ...transport, command: [process.execPath, fixture] }, { checkTimeoutMs: 5000 });
  const results: CellResult[] = [];
  await host.runShared(pick('tools-list', 'parse-error', 'ping'), run, (result) => results.push(result));
  expect(results.map((result) => `${result.scenario} ${result.status} ${result.process}`)).toEqual([
    'tools-list pass fresh',
    'parse-error fail shared',
    'ping pass fresh',
  ]);
  expect(host.processCount()).toBe(2);
}, 60_000);
