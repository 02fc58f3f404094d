import { afterEach, expect, test } from 'vitest';
import { CellSession } from '../session/cell-session.js';
import { liveServerCount } from '../session/child-processes.js';
import { StdioSession } from '../session/stdio-session.js';
import { CellState, StepFailed } from './cell-state.js';
import { expectMessage } from './expectations.js';
import { sendMessage, sendPayload } from './step-sending.js';

const ENV = { isHttp: false, defaultTimeoutMs: 60_000, timeoutScale: 1, startupTimeoutMs: 60_000 };

// A server that answers pings and requests with a method it knows, and silently drops everything else — as the
// official SDK's stdio transport drops a line that is not JSON.
const DROPPING_SERVER = `
  const rl = require('node:readline').createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let message;
    try { message = JSON.parse(line); } catch { return; }
    if (message.method === 'ping' || message.method === 'tools/list') {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: message.method === 'ping' ? {} : { tools: [] } }) + '\\n');
    }
  });
`;

const sessions: CellSession[] = [];

function cell(): CellState {
  const base = new StdioSession({ command: [process.execPath, '-e', DROPPING_SERVER], cwd: process.cwd() }, 'stdio-ndjson');
  const session = new CellSession(base, { revision: '2025-11-25', owns: true });
  sessions.push(session);
  return new CellState(session, '2025-11-25', 'legacy', {}, {});
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  expect(liveServerCount()).toBe(0);
});

async function failure(promise: Promise<unknown>): Promise<StepFailed> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StepFailed) return error;
    throw error;
  }
  throw new Error('the expectation passed');
}

test('an error answer that cannot come: the server answers a ping sent after the request, and the step says so', async () => {
  const state = cell();
  await sendPayload(state, ENV, { text: '{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {' }, {});
  const failed = await failure(expectMessage(state, { id: null, error: { code: -32700 } }, { timeoutMs: 60_000, isHttp: false }));
  expect(failed.message).toMatch(
    /no message matching the pattern within \d+ ms \(nothing unconsumed arrived, although it answered a ping sent after the request/,
  );
  // The app's own ping and its answer stay out of the cell's sight.
  expect(state.transcript.filter((entry) => entry.dir === 'in')).toEqual([]);
});

test('a well-formed request that gets no error answer waits its whole timeout (it may take its time to fail)', async () => {
  const state = cell();
  await sendMessage(state, ENV, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'x' } });
  const failed = await failure(expectMessage(state, { id: 3, error: { code: -32002 } }, { timeoutMs: 1500, isHttp: false }));
  expect(failed.message).toBe('no message matching the pattern within 1500 ms (nothing unconsumed arrived)');
});

test('a second answer to an id the server already answered cannot come: the step fails at once', async () => {
  const state = cell();
  await sendMessage(state, ENV, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await expectMessage(state, { id: 2, result: { tools: [] } }, { timeoutMs: 60_000, isHttp: false });
  const failed = await failure(expectMessage(state, { id: 2, result: { tools: { $length: 1 } } }, { timeoutMs: 60_000, isHttp: false }));
  expect(failed.message).toBe('the server already answered id 2 (an earlier step took that answer): no other answer can come');
});

test('a fresh server that stays silent because it drops the first input is taken as started once its warm-up time is over', async () => {
  // Nothing on stdout until asked something it reads: the first input is not JSON, so it never shows a sign of life.
  const state = cell();
  state.assumeStartedAfterMs = 1000;
  await sendPayload(state, ENV, { text: 'not json at all' }, {});
  const failed = await failure(
    expectMessage(state, { id: null, error: { code: -32700 } }, { timeoutMs: 60_000, startupTimeoutMs: 60_000, isHttp: false }),
  );
  expect(failed.message).toMatch(/although it answered a ping sent after the request: it read the request and left it unanswered/);
  expect(state.transcript.some((entry) => entry.dir === 'note' && /taken as started/.test(entry.text ?? ''))).toBe(true);
});
