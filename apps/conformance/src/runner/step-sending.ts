/**
 * How steps put bytes on the wire: messages (with the 2026-07-28 `_meta` added), payloads (possibly invalid,
 * padded to a size) and raw bytes, each recorded in the cell's transcript and tracked for the per-message checks.
 */
import { MetaKey } from '@wiremcp/protocol';
import { match } from '../match/matcher.js';
import type { PayloadSpec, RawChunk } from '../scenario/scenario-types.js';
import { CLIENT_INFO } from '../session/harness.js';
import { StepFailed, type CellState } from './cell-state.js';

/** What the step runner needs to know about the cell beyond its state. */
export interface StepEnvironment {
  readonly isHttp: boolean;
  readonly defaultTimeoutMs: number;
  /** Multiplies the timeouts a step gives itself (`timeoutMs`), as the default one already is. */
  readonly timeoutScale: number;
  /** How long a server may take to show a sign of life before a waiting step starts its clock. */
  readonly startupTimeoutMs: number;
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
export function checkPostStatus(
  state: CellState,
  env: StepEnvironment,
  status: number | undefined,
  expected: unknown,
  context: unknown,
): void {
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

/** Sends one message (or batch), tracked and recorded; checks the POST status on HTTP. */
export async function sendMessage(
  state: CellState,
  env: StepEnvironment,
  message: unknown,
  step: { headers?: Record<string, string | null>; status?: unknown } = {},
): Promise<void> {
  state.lastSendIndex = state.session.log.events.length;
  state.lastSendKind = 'message';
  state.trackOutgoing(message);
  state.recordOut(message);
  const outcome = await state.session.send(message, step.headers ? { headers: step.headers } : {});
  checkPostStatus(state, env, outcome.status, step.status, message);
}

/** The bytes of a `sendPayload` step: text, base64, or a JSON message (ids as they go on the wire) padded to a size. */
export function payloadBytes(state: CellState, spec: PayloadSpec): Uint8Array {
  if (spec.text !== undefined) return new TextEncoder().encode(state.resolve<string>(spec.text));
  if (spec.base64 !== undefined) return new Uint8Array(Buffer.from(spec.base64, 'base64'));
  const own = state.resolve(withModernMeta(spec.json, state));
  state.trackOutgoing(own);
  const message = state.session.toWire(own);
  const base = JSON.stringify(message);
  if (spec.padToBytes === undefined) return new TextEncoder().encode(base);
  return new TextEncoder().encode(padMessage(message, Number(state.resolve(spec.padToBytes))));
}

/** `message` (a JSON object) serialised to exactly `target` bytes, an ASCII `_pad` string in its params making up the difference. */
export function padMessage(message: unknown, target: number): string {
  if (!isObject(message)) throw new StepFailed({ message: 'padToBytes needs a JSON object message' });
  // Measure the message with an empty pad, then fill the pad with ASCII so byte and character counts agree.
  const params = isObject(message['params']) ? message['params'] : {};
  const empty = JSON.stringify({ ...message, params: { ...params, _pad: '' } });
  const fill = target - Buffer.byteLength(empty);
  if (fill < 0)
    throw new StepFailed({ message: `padToBytes ${target} is smaller than the message itself (${Buffer.byteLength(empty)} bytes)` });
  return JSON.stringify({ ...message, params: { ...params, _pad: 'x'.repeat(fill) } });
}

/** Sends a `sendPayload` step's bytes as one message. */
export async function sendPayload(
  state: CellState,
  env: StepEnvironment,
  spec: PayloadSpec,
  step: { headers?: Record<string, string | null>; status?: unknown },
): Promise<void> {
  const bytes = payloadBytes(state, spec);
  state.lastSendIndex = state.session.log.events.length;
  state.lastSendKind = 'raw';
  if (spec.json === undefined) state.trackRawText(Buffer.from(bytes).toString('utf8'));
  state.note(`payload (${bytes.length} bytes): ${Buffer.from(bytes.subarray(0, 120)).toString('utf8')}${bytes.length > 120 ? '…' : ''}`);
  const outcome = await state.session.sendPayload(bytes, step.headers ? { headers: step.headers } : {});
  checkPostStatus(state, env, outcome.status, step.status, Buffer.from(bytes.subarray(0, 200)).toString('utf8'));
}

function rawBytes(chunk: RawChunk | string): Uint8Array {
  if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
  if (chunk.base64 !== undefined) return new Uint8Array(Buffer.from(chunk.base64, 'base64'));
  return new TextEncoder().encode(chunk.text ?? '');
}

/** Sends raw bytes, chunk by chunk, with the pauses the scenario asks for. */
export async function sendRaw(state: CellState, raw: string | readonly RawChunk[]): Promise<void> {
  const chunks: ReadonlyArray<RawChunk | string> = typeof raw === 'string' ? [raw] : raw;
  state.lastSendIndex = state.session.log.events.length;
  state.lastSendKind = 'raw';
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
}

/** Waits `ms` (a scenario's `sleep`, a pause between raw chunks). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
