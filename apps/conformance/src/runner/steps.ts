/**
 * What each step action does. Steps get the cell state and the step; they throw {@link StepFailed} (or
 * {@link CellSkipped}) and return nothing.
 */
import { match } from '../match/matcher.js';
import { stepAction } from '../scenario/load-scenarios.js';
import type { AssertSpec, HandshakeOptions, HttpStepSpec, PaginateSpec, PayloadSpec, RawChunk, Step } from '../scenario/scenario-types.js';
import { CLIENT_INFO } from '../session/harness.js';
import { CellSkipped, StepFailed, type CellState } from './cell-state.js';
import { ANY_RESPONSE, expectMessage, expectNothing } from './expectations.js';
import { padMessage, sendMessage, sendPayload, sendRaw, sleep, withModernMeta, type StepEnvironment } from './step-sending.js';

export { CLIENT_INFO };
export type { StepEnvironment };

type JsonObject = Record<string, unknown>;
type Headers = Record<string, string | null>;

/** Every field a step may carry, each as the loader validated it (the schema is the contract). */
interface StepFields {
  readonly handshake?: HandshakeOptions | null;
  readonly send?: unknown;
  readonly meta?: 'auto' | 'none';
  readonly headers?: Headers;
  readonly status?: unknown;
  readonly sendPayload?: PayloadSpec;
  readonly sendRaw?: string | readonly RawChunk[];
  readonly expect?: unknown;
  readonly timeoutMs?: number;
  readonly consume?: boolean;
  readonly expectNone?: number | { readonly ms: number; readonly match?: unknown };
  readonly expectExit?: { readonly withinMs?: number; readonly code?: unknown };
  readonly reply?: { readonly to: unknown; readonly result?: unknown; readonly error?: unknown };
  readonly cancel?: { readonly id: unknown; readonly reason?: string };
  readonly paginate?: PaginateSpec;
  readonly assert?: AssertSpec;
  readonly sleep?: number;
  readonly http?: HttpStepSpec;
}

function expectOptions(env: StepEnvironment, extra: { timeoutMs?: number; status?: unknown; consume?: boolean } = {}) {
  return {
    timeoutMs: extra.timeoutMs ?? env.defaultTimeoutMs,
    startupTimeoutMs: env.startupTimeoutMs,
    isHttp: env.isHttp,
    ...(extra.status === undefined ? {} : { status: extra.status }),
    ...(extra.consume === undefined ? {} : { consume: extra.consume }),
  };
}

async function handshake(state: CellState, env: StepEnvironment, options: HandshakeOptions): Promise<void> {
  if (options.capabilities !== undefined) state.clientCapabilities = state.resolve(options.capabilities);
  const id = options.id ?? 1;
  if (state.era === 'modern') {
    if (!options.discover) return;
    await sendMessage(state, env, withModernMeta({ jsonrpc: '2.0', id, method: 'server/discover', params: {} }, state));
    const pattern = { id, result: { supportedVersions: { $contains: [state.revision] }, capabilities: { $type: 'object' } } };
    const entry = await expectMessage(state, pattern, expectOptions(env));
    state.captures['discover'] = (entry.message as JsonObject)['result'];
    return;
  }
  const shared = state.legacySession;
  if (shared?.state === 'open') {
    // A lane's later cell: the session is open (same revision, same client capabilities); its answer stands.
    state.note(`the legacy session on this process is open: initialize was answered in the cell of ${shared.openedBy ?? '?'}`);
    state.captures['initialize'] = shared.initializeResult;
    return;
  }
  const initialize = {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: state.revision, capabilities: state.clientCapabilities, clientInfo: CLIENT_INFO },
  };
  await sendMessage(state, env, initialize);
  const entry = await expectMessage(state, { id, result: { protocolVersion: state.revision } }, expectOptions(env));
  state.captures['initialize'] = (entry.message as JsonObject)['result'];
  // Sending it completes the session, which the lane then hands on (cell-state.ts tracks it).
  if (options.initialized !== false) await sendMessage(state, env, { jsonrpc: '2.0', method: 'notifications/initialized' });
}

async function paginate(state: CellState, env: StepEnvironment, spec: PaginateSpec): Promise<void> {
  const items: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let id = spec.firstId ?? 100;
  const maxPages = spec.maxPages ?? 50;
  for (let page = 1; ; page += 1) {
    if (page > maxPages) throw new StepFailed({ message: `${spec.method} still had a nextCursor after ${maxPages} pages` });
    const params = { ...(spec.params ? state.resolve<JsonObject>(spec.params) : {}), ...(cursor === undefined ? {} : { cursor }) };
    await sendMessage(state, env, withModernMeta({ jsonrpc: '2.0', id, method: spec.method, params }, state));
    const entry = await expectMessage(
      state,
      { id, result: { [spec.items]: { $type: 'array' }, nextCursor: { $optional: { $type: 'string' } } } },
      expectOptions(env),
    );
    const result = (entry.message as JsonObject)['result'] as JsonObject;
    items.push(...(result[spec.items] as unknown[]));
    const next = result['nextCursor'];
    if (typeof next !== 'string') break;
    if (cursors.has(next))
      throw new StepFailed({
        message: `${spec.method} returned the cursor ${JSON.stringify(next)} twice (a pagination loop)`,
        actual: entry.message,
      });
    cursors.add(next);
    cursor = next;
    id += 1;
  }
  state.captures[spec.capture] = items;
  state.captures[`${spec.capture}Pages`] = cursors.size + 1;
}

async function expectExit(state: CellState, env: StepEnvironment, spec: NonNullable<StepFields['expectExit']>): Promise<void> {
  await state.waitUntilStarted(env.startupTimeoutMs);
  const withinMs = spec.withinMs ?? 5000;
  const deadline = Date.now() + withinMs;
  await state.ingest();
  while (!state.exit && (await state.session.log.waitBeyond(state.cursor, deadline))) await state.ingest();
  if (!state.exit) throw new StepFailed({ message: `the server did not exit within ${withinMs} ms` });
  if (spec.code === undefined) return;
  const pattern = state.resolve(spec.code);
  if (!match(pattern, state.exit.code).ok) {
    throw new StepFailed({
      message: `the server exited with code ${state.exit.code} (signal ${state.exit.signal})`,
      expected: pattern,
      actual: state.exit.code,
    });
  }
}

function checkAssert(state: CellState, spec: AssertSpec): void {
  const value = state.resolve(spec.value);
  const pattern = state.resolve(spec.match);
  const result = match(pattern, value);
  if (result.ok) {
    Object.assign(state.captures, result.captures);
    return;
  }
  if (spec.otherwise === 'skip') throw new CellSkipped(spec.reason ?? 'a precondition of the scenario does not hold for this server');
  throw new StepFailed({
    message: spec.reason ?? 'the value does not match',
    expected: pattern,
    actual: value,
    mismatches: result.mismatches,
  });
}

async function httpStep(state: CellState, env: StepEnvironment, spec: HttpStepSpec): Promise<void> {
  const exchange = state.session.exchange?.bind(state.session);
  if (exchange === undefined) throw new StepFailed({ message: `an http step needs an HTTP transport, not ${state.session.transport}` });
  const method = spec.method ?? 'POST';
  const json = spec.json === undefined ? undefined : state.resolve(withModernMeta(spec.json, state));
  const body =
    json !== undefined
      ? spec.padToBytes === undefined
        ? JSON.stringify(json)
        : padMessage(json, Number(state.resolve(spec.padToBytes)))
      : spec.body === undefined
        ? undefined
        : state.resolve<string>(spec.body);
  let response;
  try {
    response = await exchange(
      {
        method,
        headers: state.resolve<Headers>(spec.headers ?? {}),
        ...(body === undefined ? {} : { body }),
        ...(spec.chunked ? { chunked: true } : {}),
        ...(spec.sseEvents === undefined ? {} : { sseEvents: spec.sseEvents }),
        ...(spec.query === undefined ? {} : { query: state.resolve<Headers>(spec.query) }),
      },
      env.defaultTimeoutMs,
    );
  } catch (error) {
    throw new StepFailed({ message: `${method} failed: ${(error as Error).message}` });
  }
  state.note(`${method} → ${response.status}`);
  if (spec.response === undefined) return;
  const pattern = state.resolve(spec.response);
  const result = match(pattern, response);
  if (!result.ok)
    throw new StepFailed({
      message: `the response to the ${method} does not match`,
      expected: pattern,
      actual: response,
      mismatches: result.mismatches,
    });
  Object.assign(state.captures, result.captures);
}

/** Runs one step. */
export async function runStep(state: CellState, env: StepEnvironment, step: Step): Promise<void> {
  const s = step as StepFields;
  const transport = { ...(s.headers ? { headers: s.headers } : {}), ...(s.status === undefined ? {} : { status: s.status }) };
  switch (stepAction(step)) {
    case 'handshake':
      return handshake(state, env, s.handshake ?? {});
    case 'send':
      // Merge the macro's _meta before resolving, so that a scenario's {$omit: true} can remove a key it adds.
      return sendMessage(state, env, state.resolve(s.meta === 'none' ? s.send : withModernMeta(s.send, state)), transport);
    case 'sendPayload':
      return sendPayload(state, env, s.sendPayload!, transport);
    case 'sendRaw':
      return sendRaw(state, s.sendRaw!);
    case 'expect': {
      const status = s.status === undefined ? undefined : state.resolve(s.status);
      const options = {
        ...(s.timeoutMs === undefined ? {} : { timeoutMs: Math.round(s.timeoutMs * env.timeoutScale) }),
        status,
        ...(s.consume === undefined ? {} : { consume: s.consume }),
      };
      await expectMessage(state, state.resolve(s.expect), expectOptions(env, options));
      return;
    }
    case 'expectNone': {
      const spec = typeof s.expectNone === 'number' ? { ms: s.expectNone } : s.expectNone!;
      return expectNothing(state, spec.match === undefined ? ANY_RESPONSE : state.resolve(spec.match), spec.ms);
    }
    case 'closeStdin':
      state.note('closing stdin');
      return state.session.closeInput();
    case 'expectExit':
      return expectExit(state, env, s.expectExit!);
    case 'reply': {
      const spec = s.reply!;
      const id = state.resolve(spec.to);
      const body = spec.error === undefined ? { result: state.resolve(spec.result) } : { error: state.resolve(spec.error) };
      return sendMessage(state, env, { jsonrpc: '2.0', id, ...body });
    }
    case 'cancel': {
      const spec = s.cancel!;
      const id = state.resolve(spec.id);
      // 2026-07-28 Streamable HTTP: closing the response stream is the cancellation; elsewhere a notification.
      if (state.era === 'modern' && env.isHttp && state.session.cancelByTransport(id)) {
        state.note(`cancelled request ${JSON.stringify(id)} by closing its stream`);
        return;
      }
      const params = spec.reason === undefined ? { requestId: id } : { requestId: id, reason: spec.reason };
      return sendMessage(state, env, { jsonrpc: '2.0', method: 'notifications/cancelled', params });
    }
    case 'paginate':
      return paginate(state, env, s.paginate!);
    case 'assert':
      return checkAssert(state, s.assert!);
    case 'sleep':
      await sleep(s.sleep!);
      return state.ingest();
    case 'http':
      return httpStep(state, env, s.http!);
  }
}
