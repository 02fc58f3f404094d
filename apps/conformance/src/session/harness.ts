/**
 * The app's own requests — warm-up, probes, the check a shared process passes before its next cell, the check a
 * waiting step makes that the server still reads — and waiting for their answers.
 */
import { MetaKey } from '@wiremcp/protocol';
import { eraOf } from '../scenario/selectors.js';
import type { EventLog } from './session.js';

/** Name and version the app reports as its clientInfo. */
export const CLIENT_INFO = { name: 'wiremcp-conformance', version: '0.1.0' } as const;

/** Every id the app itself uses starts with this; a cell never sees the answers. */
export const HARNESS_ID_PREFIX = 'wiremcp-conformance-';

let counter = 0;

/** A fresh id for one of the app's own requests. */
export function harnessId(purpose: string): string {
  counter += 1;
  return `${HARNESS_ID_PREFIX}${purpose}-${counter}`;
}

/** True for an id minted by {@link harnessId}. */
export function isHarnessId(id: unknown): boolean {
  return typeof id === 'string' && id.startsWith(HARNESS_ID_PREFIX);
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 2026-07-28 `_meta` every request carries. */
export function modernMeta(revision: string, capabilities: unknown = {}): JsonObject {
  return { [MetaKey.protocolVersion]: revision, [MetaKey.clientCapabilities]: capabilities, [MetaKey.clientInfo]: CLIENT_INFO };
}

/** A request every server of the revision answers at once: `ping` (legacy), `server/discover` (2026-07-28). */
export function livenessRequest(id: string, revision: string): JsonObject {
  return eraOf(revision) === 'legacy'
    ? { jsonrpc: '2.0', id, method: 'ping' }
    : { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta(revision) } };
}

/** The opening request of a revision: `initialize` (legacy) or `server/discover` (2026-07-28). */
export function openingRequest(id: string | number, revision: string): JsonObject {
  return eraOf(revision) === 'legacy'
    ? { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO } }
    : { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta(revision) } };
}

/** What came of waiting for an answer. */
export type Answer =
  | { readonly kind: 'answer'; readonly message: JsonObject }
  /** An HTTP response without a JSON-RPC body (a 4xx, a 202 to a request…). */
  | { readonly kind: 'http'; readonly status: number; readonly body: string }
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: string | null }
  | { readonly kind: 'broken'; readonly message: string }
  | { readonly kind: 'timeout' };

/** Options of {@link awaitAnswer}. */
export interface AwaitOptions {
  /** Also take an error the server could not tie to the request (id null or absent, as HTTP servers answer without a session). */
  readonly idlessErrors?: boolean;
  /** Checked at every event: a string ends the wait as `broken` (a process that could not be spawned). */
  readonly brokenWhen?: () => string | undefined;
}

/**
 * Waits for the answer to request `id` among the log's events from index `from`: its response (or an id-less
 * error, see {@link AwaitOptions}). An exit or an HTTP answer without a JSON-RPC body ends the wait.
 */
export async function awaitAnswer(log: EventLog, from: number, id: unknown, deadline: number, options: AwaitOptions = {}): Promise<Answer> {
  let seen = from;
  for (;;) {
    for (; seen < log.events.length; seen += 1) {
      const event = log.events[seen]!;
      if (event.kind === 'message' && isObject(event.message) && !('method' in event.message)) {
        const answerId = event.message['id'];
        if (answerId === id) return { kind: 'answer', message: event.message };
        const idless = answerId === null || answerId === undefined;
        if (options.idlessErrors && idless && 'error' in event.message) return { kind: 'answer', message: event.message };
      }
      if (event.kind === 'http') return { kind: 'http', status: event.status, body: event.body };
      if (event.kind === 'ended' && event.requestId === id) return { kind: 'http', status: event.status, body: '' };
      if (event.kind === 'exit') return { kind: 'exit', code: event.code, signal: event.signal };
      const broken = options.brokenWhen?.();
      if (broken !== undefined) return { kind: 'broken', message: broken };
    }
    if (!(await log.waitBeyond(seen, deadline))) return { kind: 'timeout' };
  }
}
