/**
 * Which cells need a server process of their own, and which may share one.
 *
 * Over stdio one process is one connection, and at most one legacy session. Starting a process per cell is what
 * made the matrix slow, so cells share processes wherever that cannot change what a cell sees:
 *
 * - a **lane** is server × transport × revision (× the client capabilities of the legacy `initialize`): its
 *   cells run one after another on a few processes. In a legacy lane the first `handshake` on a process opens the
 *   session and later cells reuse it (their `handshake` checks nothing new: same revision, same capabilities); in a
 *   2026-07-28 lane every request stands alone anyway. Request ids are kept apart per cell (`id-translation.ts`),
 *   and before each later cell the process must answer a ping (`server/discover` in 2026-07-28).
 * - a lane is cut into segments, one process each: a segment may begin with a **head** (a cell that tests the
 *   start of a legacy session: it needs a process nothing ran on) and end with a **tail** (a cell that changes what
 *   the server holds) and an **end** (a cell that closes stdin and watches the process exit). A head that leaves the session open with the lane's revision and
 *   capabilities hands it on; one that leaves it half open ends its segment's use of the process.
 * - a cell gets a **fresh** process of its own when the scenario says so (`process: fresh`: it changes what the
 *   server holds for later requests, or depends on what the server does when it starts), when it both starts the
 *   session and ends the process, or when it mixes a legacy session into 2026-07-28 requests.
 *
 * HTTP cells open an HTTP session each; they share the server process of their server × transport, except
 * `process: fresh` scenarios, which get their own.
 */
import { eraOf } from '../scenario/selectors.js';
import { stepAction } from '../scenario/load-scenarios.js';
import type { HandshakeOptions, PayloadSpec, RawChunk, Step } from '../scenario/scenario-types.js';
import { isStdioTransport } from '../scenario/scenario-types.js';
import type { Cell } from './cell-types.js';
import { applicableSteps } from './conditions.js';

/**
 * Where a cell sits in its lane:
 * - `pre`: tests what a server does before any session (a ping, a request before initialize); it needs a process
 *   without a legacy session and leaves it so, so several can share one before the session starts;
 * - `head`: needs a process without a session, and leaves one open (it tests initialize itself);
 * - `solo`: needs a process without a session and spoils it (initialize without completing the session);
 * - `body`: runs on a process with the lane's session (or none yet);
 * - `tail`: may run after others, but only an `end` may follow it (it changes what the server holds: `process: last`);
 * - `end`: closes stdin and watches the process exit; it may follow a `tail`, since what it checks is how the
 *   process ends, and a server must end the same whatever its session did before.
 */
export type LaneRole = 'pre' | 'head' | 'solo' | 'body' | 'tail' | 'end';

/** How a cell gets its server process. */
export type Isolation =
  | { readonly kind: 'fresh'; readonly reason: string }
  /**
   * `lane`: cells with the same lane run in order on shared stdio processes; absent for HTTP (sessions in
   * parallel). `exactIds`: the cell's request ids go on the wire as written (`process: first`).
   */
  | { readonly kind: 'shared'; readonly lane?: string; readonly role: LaneRole; readonly exactIds: boolean; readonly reason?: string };

type Fields = Record<string, unknown>;

const INITIALIZE_TEXT = /"method"\s*:\s*"initialize"/;

function branches(value: unknown): unknown[] {
  if (typeof value === 'object' && value !== null && '$byRevision' in value) {
    return Object.values((value as { $byRevision: Record<string, unknown> }).$byRevision);
  }
  return [value];
}

function rawTexts(step: Step): string[] {
  const fields = step as unknown as Fields;
  if (stepAction(step) === 'sendPayload') {
    const payload = fields['sendPayload'] as PayloadSpec;
    return payload.text === undefined ? [] : [payload.text];
  }
  if (stepAction(step) !== 'sendRaw') return [];
  const raw = fields['sendRaw'] as string | readonly RawChunk[];
  return typeof raw === 'string' ? [raw] : raw.map((chunk) => chunk.text ?? '');
}

function sendsInitialize(step: Step): boolean {
  const fields = step as unknown as Fields;
  switch (stepAction(step)) {
    case 'send': {
      const messages = Array.isArray(fields['send']) ? (fields['send'] as unknown[]) : [fields['send']];
      return messages.some(
        (message) => typeof message === 'object' && message !== null && branches((message as Fields)['method']).includes('initialize'),
      );
    }
    case 'sendPayload': {
      const payload = fields['sendPayload'] as PayloadSpec;
      if (payload.json !== undefined) return INITIALIZE_TEXT.test(JSON.stringify(payload.json));
      return payload.text !== undefined && INITIALIZE_TEXT.test(payload.text);
    }
    case 'sendRaw':
      return rawTexts(step).some((text) => INITIALIZE_TEXT.test(text));
    default:
      return false;
  }
}

function isTemplated(value: unknown): boolean {
  const text = JSON.stringify(value) ?? '';
  return text.includes('{{') || text.includes('"$byRevision"');
}

/**
 * What a legacy cell's start says: the client capabilities its `handshake` declares (part of its lane), that it
 * is a head (it starts the session itself: no handshake first, or it completes the initialization itself), or a
 * reason it needs a process of its own.
 */
function legacyHandshake(
  cell: Cell,
  steps: ReadonlyArray<{ step: Step }>,
): { capabilities: unknown } | { head: true; initializes: boolean } | { fresh: string } {
  const first = steps[0]?.step;
  const handshakes = steps.filter(({ step }) => stepAction(step) === 'handshake');
  if (handshakes.length > 1) return { fresh: 'performs more than one handshake' };
  if (first === undefined || stepAction(first) !== 'handshake') {
    return handshakes.length === 0 ? { head: true, initializes: false } : { fresh: 'does not begin with its handshake' };
  }
  const options = ((first as unknown as Fields)['handshake'] ?? {}) as HandshakeOptions;
  const capabilities = options.capabilities ?? cell.scenario.clientCapabilities;
  if (isTemplated(capabilities)) return { fresh: 'declares templated client capabilities' };
  if (options.initialized === false) return { head: true, initializes: true };
  return { capabilities };
}

/** True when a step sends `notifications/initialized` (completing a session the cell opened itself). */
function sendsInitialized(step: Step): boolean {
  const fields = step as unknown as Fields;
  if (stepAction(step) === 'send') {
    const messages = Array.isArray(fields['send']) ? (fields['send'] as unknown[]) : [fields['send']];
    return messages.some(
      (message) => typeof message === 'object' && message !== null && (message as Fields)['method'] === 'notifications/initialized',
    );
  }
  return rawTexts(step).some((text) => /"method"\s*:\s*"notifications\/initialized"/.test(text));
}

/** Decides how the cell gets its server process. */
export function isolationOf(cell: Cell): Isolation {
  const declared = cell.scenario.process;
  if (declared === 'fresh') return { kind: 'fresh', reason: 'the scenario asks for a process of its own (process: fresh)' };
  const exactIds = declared === 'first';
  if (!isStdioTransport(cell.transport.id)) {
    // HTTP: every cell has its own session; a scenario that changes what the whole server holds gets its own server.
    if (declared === 'last') return { kind: 'fresh', reason: 'the scenario changes what the server holds (process: last)' };
    return { kind: 'shared', role: 'body', exactIds };
  }
  const steps = applicableSteps(cell);
  const ends = steps.some(({ step }) => ['closeStdin', 'expectExit'].includes(stepAction(step)));
  const last = declared === 'last';
  const lane = `${cell.target.id}|${cell.transport.id}|${cell.revision}`;
  if (eraOf(cell.revision) === 'modern') {
    if (steps.some(({ step }) => sendsInitialize(step)))
      return { kind: 'fresh', reason: 'opens a legacy session beside the modern requests' };
    if (exactIds && (last || ends)) return { kind: 'fresh', reason: 'needs a new process and ends it' };
    return { kind: 'shared', lane, role: exactIds ? 'head' : ends ? 'end' : last ? 'tail' : 'body', exactIds };
  }
  const handshake = legacyHandshake(cell, steps);
  if ('fresh' in handshake) return { kind: 'fresh', reason: handshake.fresh };
  const initializes = ('head' in handshake && handshake.initializes) || steps.some(({ step }) => sendsInitialize(step));
  const completes = !initializes || 'capabilities' in handshake || steps.some(({ step }) => sendsInitialized(step));
  const capabilities = 'head' in handshake ? cell.scenario.clientCapabilities : handshake.capabilities;
  const key = `${lane}|${JSON.stringify(capabilities)}`;
  if ('head' in handshake && !initializes) {
    if (last || ends) return { kind: 'fresh', reason: 'tests the time before the session and ends the process' };
    return { kind: 'shared', lane: key, role: 'pre', exactIds };
  }
  const first = exactIds || 'head' in handshake || initializes;
  if (first && !completes) return { kind: 'shared', lane: key, role: 'solo', exactIds, reason: 'leaves the session half open' };
  if (first && (last || ends)) return { kind: 'fresh', reason: 'tests the start of the session and ends the process' };
  return { kind: 'shared', lane: key, role: first ? 'head' : ends ? 'end' : last ? 'tail' : 'body', exactIds };
}

const RAW_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/g;

/**
 * The request ids a cell sends as they are — as bytes the app does not translate (`sendRaw`, `sendPayload` text),
 * or every id of a `process: first` scenario — so that a lane never sends one of them twice on one process.
 */
export function rawIds(cell: Cell): string[] {
  const steps = applicableSteps(cell);
  const raw = steps.flatMap(({ step }) => rawTexts(step).flatMap((text) => [...text.matchAll(RAW_ID)].map((found) => found[1]!)));
  if (cell.scenario.process !== 'first') return raw;
  const exact = steps.flatMap(({ step }) => {
    const fields = step as unknown as Fields;
    if (stepAction(step) === 'handshake') return [JSON.stringify(((fields['handshake'] ?? {}) as HandshakeOptions).id ?? 1)];
    if (stepAction(step) !== 'send') return [];
    const messages = Array.isArray(fields['send']) ? (fields['send'] as unknown[]) : [fields['send']];
    return messages.flatMap((message) =>
      typeof message === 'object' && message !== null && 'id' in message ? [JSON.stringify((message as Fields)['id'])] : [],
    );
  });
  return [...raw, ...exact];
}
