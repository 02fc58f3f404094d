/**
 * What each step action does. Steps get the cell state and the step; they throw {@link StepFailed} (or
 * {@link CellSkipped}) and return nothing.
 */
import { MetaKey } from '@wiremcp/protocol';
import { match } from '../match/matcher.js';
import { stepAction } from '../scenario/load-scenarios.js';
import type { HandshakeOptions, PaginateSpec, PayloadSpec, RawChunk, Step } from '../scenario/scenario-types.js';
import { CellSkipped, StepFailed, type CellState } from './cell-state.js';
import { ANY_RESPONSE, expectMessage, expectNothing } from './expectations.js';

/** Name and version the app reports as its clientInfo. */
export const CLIENT_INFO = { name: 'wiremcp-conformance', version: '0.1.0' } as const;

/** What the step runner needs to know about the cell beyond its state. */
export interface StepEnvironment {
  readonly isHttp: boolean;
  readonly defaultTimeoutMs: number;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Modern cells: a request gets the `_meta` every 2026-07-28 request must carry (version, client capabilities,
 * client info), under whatever `_meta` the scenario wrote (which wins, and can `$omit` a key).
 */
export function withModernMeta(message: unknown, state: CellState): unknown {
  // Applied before templates are resolved (see the send step), so `method` may still be a template.
  if (state.era !== 'modern' || !isObject(message) || !('method' in message) || !('id' in message)) return message;
  const params = isObject(message['params']) ? message['params'] : {};
  const own = isObject(params['_meta']) ? params['_meta'] : {};
  const meta = {
    [MetaKey.protocolVersion]: state.revision,
    [MetaKey.clientCapabilities]: state.clientCapabilities,
    [MetaKey.clientInfo]: CLIENT_INFO,
    ...own,
  };
  return { ...message, params: { ...params, _meta: meta } };
}

/** HTTP cells: fails the step when the POST's status does not match the step's `status` pattern. */
function checkPostStatus(state: CellState, env: StepEnvironment, status: number | undefined, expected: unknown, context: unknown): void {
  if (!env.isHttp || expected === undefined) return;
  const pattern = state.resolve(expected);
  if (!match(pattern, status).ok) {
    throw new StepFailed({
      message: `the POST was answered with HTTP ${status ?? '(no response)'}`,
      expected: { status: pattern },
      actual: { status: status ?? null, sent: context },
    });
  }
}

async function sendMessage(
  state: CellState,
  env: StepEnvironment,
  message: unknown,
  step: { headers?: Record<string, string | null>; status?: unknown },
): Promise<void> {
  state.lastSendIndex = state.session.log.events.length;
  state.trackOutgoing(message);
  state.recordOut(message);
  const outcome = await state.session.send(message, step.headers ? { headers: step.headers } : {});
  checkPostStatus(state, env, outcome.status, step.status, message);
}

function payloadBytes(state: CellState, spec: PayloadSpec): Uint8Array {
  if (spec.text !== undefined) return new TextEncoder().encode(state.resolve<string>(spec.text));
  if (spec.base64 !== undefined) return new Uint8Array(Buffer.from(spec.base64, 'base64'));
  const message = state.resolve(withModernMeta(spec.json, state));
  state.trackOutgoing(message);
  const base = JSON.stringify(message);
  if (spec.padToBytes === undefined) return new TextEncoder().encode(base);
  const target = Number(state.resolve(spec.padToBytes));
  if (!isObject(message)) throw new StepFailed({ message: 'padToBytes needs a JSON object message' });
  // Measure the message with an empty pad, then fill the pad with ASCII so byte and character counts agree.
  const params = isObject(message['params']) ? message['params'] : {};
  const empty = JSON.stringify({ ...message, params: { ...params, _pad: '' } });
  const fill = target - Buffer.byteLength(empty);
  if (fill < 0)
    throw new StepFailed({ message: `padToBytes ${target} is smaller than the message itself (${Buffer.byteLength(empty)} bytes)` });
  return new TextEncoder().encode(JSON.stringify({ ...message, params: { ...params, _pad: 'x'.repeat(fill) } }));
}

function rawBytes(chunk: RawChunk | string): Uint8Array {
  if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
  if (chunk.base64 !== undefined) return new Uint8Array(Buffer.from(chunk.base64, 'base64'));
  return new TextEncoder().encode(chunk.text ?? '');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function handshake(state: CellState, env: StepEnvironment, options: HandshakeOptions): Promise<void> {
  if (options.capabilities !== undefined) state.clientCapabilities = state.resolve(options.capabilities);
  const id = options.id ?? 1;
  if (state.era === 'modern') {
    if (!options.discover) return;
    await sendMessage(state, env, withModernMeta({ jsonrpc: '2.0', id, method: 'server/discover', params: {} }, state), {});
    const pattern = { id, result: { supportedVersions: { $contains: [state.revision] }, capabilities: { $type: 'object' } } };
    const entry = await expectMessage(state, pattern, { timeoutMs: env.defaultTimeoutMs, isHttp: env.isHttp });
    state.captures['discover'] = (entry.message as JsonObject)['result'];
    return;
  }
  const initialize = {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: state.revision, capabilities: state.clientCapabilities, clientInfo: CLIENT_INFO },
  };
  await sendMessage(state, env, initialize, {});
  const entry = await expectMessage(
    state,
    { id, result: { protocolVersion: state.revision } },
    { timeoutMs: env.defaultTimeoutMs, isHttp: env.isHttp },
  );
  state.captures['initialize'] = (entry.message as JsonObject)['result'];
  if (options.initialized !== false) await sendMessage(state, env, { jsonrpc: '2.0', method: 'notifications/initialized' }, {});
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
    await sendMessage(state, env, withModernMeta({ jsonrpc: '2.0', id, method: spec.method, params }, state), {});
    const entry = await expectMessage(
      state,
      { id, result: { [spec.items]: { $type: 'array' }, nextCursor: { $optional: { $type: 'string' } } } },
      { timeoutMs: env.defaultTimeoutMs, isHttp: env.isHttp },
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

/** Runs one step. */
export async function runStep(state: CellState, env: StepEnvironment, step: Step): Promise<void> {
  const action = stepAction(step);
  const s = step as Record<string, any>;
  switch (action) {
    case 'handshake':
      return handshake(state, env, (s['handshake'] ?? {}) as HandshakeOptions);
    case 'send': {
      // Merge the macro's _meta before resolving, so that a scenario's {$omit: true} can remove a key it adds.
      const message = state.resolve(s['meta'] === 'none' ? s['send'] : withModernMeta(s['send'], state));
      return sendMessage(state, env, message, { headers: s['headers'], status: s['status'] });
    }
    case 'sendPayload': {
      const bytes = payloadBytes(state, s['sendPayload'] as PayloadSpec);
      state.lastSendIndex = state.session.log.events.length;
      state.trackRawText(Buffer.from(bytes).toString('utf8'));
      state.note(
        `payload (${bytes.length} bytes): ${Buffer.from(bytes.subarray(0, 120)).toString('utf8')}${bytes.length > 120 ? '…' : ''}`,
      );
      const outcome = await state.session.sendPayload(bytes, s['headers'] ? { headers: s['headers'] } : {});
      checkPostStatus(state, env, outcome.status, s['status'], Buffer.from(bytes.subarray(0, 200)).toString('utf8'));
      return;
    }
    case 'sendRaw': {
      const chunks: (RawChunk | string)[] = typeof s['sendRaw'] === 'string' ? [s['sendRaw']] : s['sendRaw'];
      state.lastSendIndex = state.session.log.events.length;
      const all = chunks.map((chunk) =>
        rawBytes(
          typeof chunk === 'string'
            ? state.resolve<string>(chunk)
            : { ...chunk, ...(chunk.text === undefined ? {} : { text: state.resolve<string>(chunk.text) }) },
        ),
      );
      state.trackRawText(Buffer.concat(all).toString('utf8'));
      for (const [index, chunk] of chunks.entries()) {
        const bytes = all[index]!;
        state.note(`raw bytes: ${JSON.stringify(Buffer.from(bytes.subarray(0, 120)).toString('utf8'))}`);
        await state.session.sendRaw(bytes);
        if (typeof chunk !== 'string' && chunk.pauseMs) await sleep(chunk.pauseMs);
      }
      return;
    }
    case 'expect': {
      const pattern = state.resolve(s['expect']);
      const status = s['status'] === undefined ? undefined : state.resolve(s['status']);
      await expectMessage(state, pattern, {
        timeoutMs: s['timeoutMs'] ?? env.defaultTimeoutMs,
        status,
        isHttp: env.isHttp,
        consume: s['consume'],
      });
      return;
    }
    case 'expectNone': {
      const spec =
        typeof s['expectNone'] === 'number' ? { ms: s['expectNone'] as number } : (s['expectNone'] as { ms: number; match?: unknown });
      return expectNothing(state, spec.match === undefined ? ANY_RESPONSE : state.resolve(spec.match), spec.ms);
    }
    case 'closeStdin':
      state.note('closing stdin');
      return state.session.closeInput();
    case 'expectExit': {
      const spec = s['expectExit'] as { withinMs?: number; code?: unknown };
      const deadline = Date.now() + (spec.withinMs ?? 5000);
      await state.ingest();
      while (!state.exit && (await state.session.log.waitBeyond(state.cursor, deadline))) await state.ingest();
      if (!state.exit) throw new StepFailed({ message: `the server did not exit within ${spec.withinMs ?? 5000} ms` });
      if (spec.code !== undefined) {
        const pattern = state.resolve(spec.code);
        if (!match(pattern, state.exit.code).ok) {
          throw new StepFailed({
            message: `the server exited with code ${state.exit.code} (signal ${state.exit.signal})`,
            expected: pattern,
            actual: state.exit.code,
          });
        }
      }
      return;
    }
    case 'reply': {
      const spec = s['reply'] as { to: unknown; result?: unknown; error?: unknown };
      const id = state.resolve(spec.to);
      const message =
        spec.error === undefined
          ? { jsonrpc: '2.0', id, result: state.resolve(spec.result) }
          : { jsonrpc: '2.0', id, error: state.resolve(spec.error) };
      return sendMessage(state, env, message, {});
    }
    case 'cancel': {
      const spec = s['cancel'] as { id: unknown; reason?: string };
      const id = state.resolve(spec.id);
      // 2026-07-28 Streamable HTTP: closing the response stream is the cancellation; elsewhere a notification.
      if (state.era === 'modern' && env.isHttp && state.session.cancelByTransport(id)) {
        state.note(`cancelled request ${JSON.stringify(id)} by closing its stream`);
        return;
      }
      const params = spec.reason === undefined ? { requestId: id } : { requestId: id, reason: spec.reason };
      return sendMessage(state, env, { jsonrpc: '2.0', method: 'notifications/cancelled', params }, {});
    }
    case 'paginate':
      return paginate(state, env, s['paginate'] as PaginateSpec);
    case 'assert': {
      const spec = s['assert'] as { value: unknown; match: unknown; otherwise?: 'fail' | 'skip'; reason?: string };
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
    case 'sleep':
      await sleep(s['sleep'] as number);
      return state.ingest();
  }
}
