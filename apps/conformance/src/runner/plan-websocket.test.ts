import { expect, test } from 'vitest';
import { DEFAULT_REGISTRY, SCENARIOS_DIR } from '../paths.js';
import { loadScenarios } from '../scenario/load-scenarios.js';
import { conditionHolds } from './conditions.js';
import { loadRegistry } from '../targets/registry.js';
import type { Target } from '../targets/target.js';
import { isolationOf } from './isolation.js';
import { planMatrix } from './plan.js';

// The registry's reference servers, as if built (the plan only reads what they declare).
const targets: Target[] = loadRegistry(DEFAULT_REGISTRY)
  .filter((server) => server.isDefault)
  .map(({ target }) => {
    const { unavailable: _unavailable, ...available } = target;
    return available;
  });
const { scenarios, errors } = loadScenarios(SCENARIOS_DIR);
const cells = planMatrix(scenarios, targets, {});
const ws = cells.filter((cell) => cell.transport.id === 'websocket');

test('every reference server is reached over WebSocket with --ws on a free port, every revision on one endpoint', () => {
  expect(errors).toEqual([]);
  for (const target of targets) {
    const transport = target.transports.find((candidate) => candidate.id === 'websocket');
    expect(transport).toMatchObject({ kind: 'http', url: 'ws://127.0.0.1:{{port}}/mcp' });
    expect(transport?.kind === 'http' && transport.start?.command.slice(-2)).toEqual(['--ws', '127.0.0.1:{{port}}']);
    const revisions = new Set(ws.filter((cell) => cell.target.id === target.id).map((cell) => cell.revision));
    expect([...revisions].sort()).toEqual([...target.revisions].sort());
  }
});

test('scenarios written for other transports are WebSocket cells "not applicable" with the reason, never run', () => {
  const framing = ws.find((cell) => cell.scenario.id === 'oversized-frame');
  expect(framing?.notApplicable).toMatch(/^checks stdio itself/);
  const header = ws.find((cell) => cell.scenario.transports.every((id) => id.startsWith('streamable-http') || id === 'http-sse'));
  expect(header?.notApplicable).toMatch(/^checks HTTP itself/);
  const utf8 = ws.find((cell) => cell.scenario.id === 'parse-error-invalid-utf8');
  expect(utf8?.notApplicable).toMatch(/description says why/);
  expect(utf8?.scenario.description).toMatch(/WebSocket is left out/);
  // The other transports keep their matrix: a stdio-only scenario has no HTTP cells at all.
  expect(cells.some((cell) => cell.scenario.id === 'oversized-frame' && cell.transport.id === 'streamable-http')).toBe(false);
  const runnable = ws.filter((cell) => cell.notApplicable === undefined);
  expect(runnable.length).toBeGreaterThan(500);
  expect(runnable.every((cell) => cell.scenario.transports.includes('websocket'))).toBe(true);
});

test('a WebSocket cell runs the steps of stdio-like transports, not those of HTTP', () => {
  const cell = ws.find((candidate) => candidate.scenario.id === 'unknown-method' && candidate.revision === '2026-07-28')!;
  const runs = cell.scenario.steps.map((step) => conditionHolds(step.when, cell));
  // handshake, send, the stdio/websocket expect; neither HTTP expect (no status codes over WebSocket).
  expect(runs).toEqual([true, true, true, false, false]);
});

test('each WebSocket cell has a connection of its own on the shared server; a scenario that changes the server gets its own', () => {
  const body = ws.find((cell) => cell.scenario.id === 'tools-list' && cell.target.id === 'everything')!;
  expect(isolationOf(body)).toMatchObject({ kind: 'shared', role: 'body' });
  const changes = ws.find((cell) => cell.scenario.process === 'last' && cell.notApplicable === undefined)!;
  expect(isolationOf(changes)).toMatchObject({ kind: 'fresh' });
});
