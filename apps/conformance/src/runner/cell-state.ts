/**
 * The state of a running cell: the session's events read so far, the messages not yet consumed by an
 * expectation, captures, the transcript, and the bookkeeping the per-message checks need.
 *
 * Queue semantics (README "Matching messages"): messages the server sends are consumed in arrival order by the
 * first `expect` whose pattern they match. A message that matches nothing stays queued — notifications and
 * server requests may interleave with what a scenario waits for. Two things fail at once instead of waiting for
 * the timeout: a response carrying the id the pattern names but not matching it, and any message breaking the
 * schema or protocol checks (at whatever step is running when it arrives).
 */
import { isLegacyProtocolVersion, LATEST_LEGACY_PROTOCOL_VERSION, MetaKey, type ProtocolVersion } from '@wiremcp/protocol';
import { diffPattern } from '../match/diff.js';
import type { TemplateScope } from '../match/template.js';
import { resolveTemplate } from '../match/template.js';
import type { SharedLegacySession } from '../hosts/host.js';
import type { CellSession } from '../session/cell-session.js';
import type { SessionEvent } from '../session/session.js';
import type { StepFailure, TranscriptEntry } from './cell-types.js';
import { checkServerMessage, type CheckContext, type SentRequest } from './message-checks.js';

/** A message waiting to be consumed. `index` is its position in the session log. */
export interface Pending {
  readonly index: number;
  readonly message: unknown;
  readonly status?: number;
}

/** Thrown by a step that failed; carries the failure for the report. */
export class StepFailed extends Error {
  constructor(readonly failure: Omit<StepFailure, 'step' | 'stepLabel'>) {
    super(failure.message);
    this.name = 'StepFailed';
  }
}

/** Thrown when the server process never showed a sign of life within the start-up timeout: the cell could not run. */
export class StartupFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupFailed';
  }
}

/** Thrown by an `assert` with `otherwise: skip`: the rest of the cell does not apply to this server. */
export class CellSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CellSkipped';
  }
}

const TRANSCRIPT_LIMIT = 200;

/** Mutable state of one cell run. */
export class CellState implements CheckContext {
  readonly session: CellSession;
  readonly revision: ProtocolVersion;
  readonly era: 'legacy' | 'modern';
  readonly sentRequests = new Map<string, SentRequest>();
  /** The revision a legacy initialize negotiated in this cell (modern cells that open a legacy session too). */
  legacyRevision: ProtocolVersion | undefined;
  readonly answered = new Set<string>();
  clientCapabilities: Record<string, unknown>;
  readonly captures: Record<string, unknown> = {};
  readonly pending: Pending[] = [];
  readonly transcript: TranscriptEntry[] = [];
  readonly httpNotes: string[] = [];
  /** Log index when the latest message was sent: `expectNone` looks at what arrived since. */
  lastSendIndex = 0;
  /** What the latest send was: a message the app serialised, or bytes sent as they are (sendPayload, sendRaw). */
  lastSendKind: 'message' | 'raw' = 'message';
  exit: { code: number | null; signal: string | null } | undefined;
  /** HTTP: requests whose POST response ended without their answer (stringified ids). */
  readonly ended = new Set<string>();
  /** Legacy lanes: the session shared with the other cells of the lane. */
  legacySession: SharedLegacySession | undefined;
  /**
   * When set (a fresh stdio process of a server whose warm-up showed how fast it starts): after this long without a
   * sign of life the server counts as started. A server that drops unreadable input writes nothing until asked
   * something it reads, and its cell should fail on its own step, not wait for the start-up timeout.
   */
  assumeStartedAfterMs: number | undefined;
  /** The scenario the cell runs (for the shared session's bookkeeping). */
  scenarioId = '';
  #cursor = 0;
  readonly #vars: Record<string, unknown>;
  /** The last `initialize` this cell sent (id, capabilities) and its result, to tell a lane what session it left. */
  #initialize: { id: string; capabilities: unknown; result?: Record<string, unknown>; initializedSent?: boolean } | undefined;

  constructor(
    session: CellSession,
    revision: ProtocolVersion,
    era: 'legacy' | 'modern',
    clientCapabilities: Record<string, unknown>,
    vars: Record<string, unknown>,
  ) {
    this.session = session;
    this.revision = revision;
    this.era = era;
    this.clientCapabilities = clientCapabilities;
    this.#vars = vars;
  }

  /** The template scope of the cell: revision, era, server, transport, limits and captures. */
  scope(): TemplateScope {
    return { revision: this.revision, era: this.era, vars: { ...this.#vars, capture: this.captures } };
  }

  /** Resolves templates in `value` for this cell (a missing capture becomes a step failure). */
  resolve<T = unknown>(value: unknown): T {
    try {
      return resolveTemplate<T>(value, this.scope());
    } catch (error) {
      throw new StepFailed({ message: `template: ${(error as Error).message}` });
    }
  }

  /** Index of the next unread session event. */
  get cursor(): number {
    return this.#cursor;
  }

  note(text: string): void {
    this.#record({ at: this.session.log.now(), dir: 'note', text });
  }

  recordOut(message: unknown): void {
    this.#record({ at: this.session.log.now(), dir: 'out', message });
  }

  #record(entry: TranscriptEntry): void {
    if (this.transcript.length < TRANSCRIPT_LIMIT) this.transcript.push(entry);
  }

  /**
   * Remembers a request the client sent (for response validation and the unknown-id check), with the revision
   * its answer is validated against: the cell's, except for a request without the modern _meta in a modern cell
   * (a dual-era scenario speaking legacy on purpose), whose answer belongs to the legacy session.
   */
  trackOutgoing(message: unknown): void {
    const items = Array.isArray(message) ? message : [message];
    for (const item of items) {
      // Anything with an id that is not a response counts, even a malformed request (`method: 1`): the server
      // may answer it with that id.
      if (!isObject(item) || !('id' in item) || 'result' in item || 'error' in item) continue;
      const params = isObject(item['params']) ? item['params'] : undefined;
      const meta = params && isObject(params['_meta']) ? params['_meta'] : undefined;
      const legacyRequest = this.era === 'modern' && meta?.[MetaKey.protocolVersion] === undefined;
      const revision = legacyRequest ? (this.legacyRevision ?? LATEST_LEGACY_PROTOCOL_VERSION) : this.revision;
      const method = typeof item['method'] === 'string' ? item['method'] : undefined;
      this.sentRequests.set(JSON.stringify(item['id']), { ...(method === undefined ? {} : { method }), revision });
      if (method === 'initialize') {
        this.#initialize = { id: JSON.stringify(item['id']), capabilities: params?.['capabilities'] };
        this.legacySession?.initializeSent();
      }
    }
    for (const item of items) {
      if (!isObject(item) || item['method'] !== 'notifications/initialized' || this.#initialize === undefined) continue;
      this.#initialize.initializedSent = true;
      this.#noteOpened();
    }
  }

  /** Tells the lane that this cell completed a legacy session: initialize answered and notifications/initialized sent (in either order of arrival). */
  #noteOpened(): void {
    const result = this.#initialize?.result;
    const version = result?.['protocolVersion'];
    if (this.#initialize?.initializedSent && typeof version === 'string') {
      this.legacySession?.opened(result, version, this.#initialize.capabilities, this.scenarioId);
    }
  }

  /**
   * Reads the session events that arrived since the last call: queues messages, runs the per-message checks and
   * throws a {@link StepFailed} for the first violation (a schema or protocol problem, stray bytes on stdout).
   */
  async ingest(): Promise<void> {
    const events = this.session.log.events;
    while (this.#cursor < events.length) {
      const index = this.#cursor;
      const event = events[index]!;
      this.#cursor += 1;
      await this.#handle(event, index);
    }
  }

  async #handle(event: SessionEvent, index: number): Promise<void> {
    switch (event.kind) {
      case 'message': {
        this.#record({ at: event.at, dir: 'in', message: event.message });
        this.pending.push({ index, message: event.message, ...(event.http ? { status: event.http.status } : {}) });
        this.#noteInitialize(event.message);
        const problems = await checkServerMessage(event.message, this);
        if (problems.length > 0) {
          throw new StepFailed({
            message: problems.map((problem) => problem.summary).join('; '),
            actual: event.message,
            ...(problems[0]!.issues ? { issues: problems[0]!.issues } : {}),
          });
        }
        return;
      }
      case 'violation':
        this.#record({ at: event.at, dir: 'note', text: `violation: ${event.message}` });
        throw new StepFailed({ message: event.message });
      case 'exit':
        this.exit = { code: event.code, signal: event.signal };
        this.#record({
          at: event.at,
          dir: 'note',
          text:
            this.session.transport === 'websocket'
              ? `the server closed the WebSocket connection (code ${event.code}${event.signal ? `, reason ${JSON.stringify(event.signal)}` : ''})`
              : `server exited (code ${event.code}, signal ${event.signal})`,
        });
        return;
      case 'http':
        if (event.status >= 300) this.httpNotes.push(`HTTP ${event.status}${event.body ? `: ${event.body.slice(0, 200)}` : ''}`);
        this.#record({ at: event.at, dir: 'note', text: `HTTP ${event.status} ${event.body.slice(0, 200)}` });
        return;
      case 'ended':
        this.ended.add(JSON.stringify(event.requestId));
        this.#record({
          at: event.at,
          dir: 'note',
          text: `the HTTP ${event.status} response to request ${JSON.stringify(event.requestId)} ended without its answer`,
        });
        return;
    }
  }

  /**
   * Waits until the server has shown a sign of life (its first output, or its exit), so that a waiting step's
   * own timeout does not pay for the start-up. Fails the cell as "could not run" after `startupTimeoutMs`.
   */
  async waitUntilStarted(startupTimeoutMs: number): Promise<void> {
    if (this.session.isStarted()) return;
    const since = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let assumed: ReturnType<typeof setTimeout> | undefined;
    const assumeAfter = this.assumeStartedAfterMs;
    const started = await Promise.race([
      this.session.started.then(() => true as const),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), startupTimeoutMs))),
      ...(assumeAfter === undefined || assumeAfter >= startupTimeoutMs
        ? []
        : [new Promise<'assumed'>((resolve) => (assumed = setTimeout(() => resolve('assumed'), assumeAfter)))]),
    ]);
    clearTimeout(timer);
    clearTimeout(assumed);
    if (started === 'assumed') {
      this.note(
        `the server wrote nothing within ${assumeAfter} ms; it started well within that at warm-up, so it is taken as started (it may be ` +
          'silent until it reads something it answers)',
      );
      return;
    }
    if (!started) {
      throw new StartupFailed(
        `the server process showed no sign of life (no output, no exit) within ${Math.round(startupTimeoutMs / 1000)} s (--startup-timeout)`,
      );
    }
    const waited = Date.now() - since;
    if (waited >= 50) this.note(`the server started (its first output) after ${waited} ms of waiting`);
  }

  #noteInitialize(message: unknown): void {
    if (!isObject(message) || !isObject(message['result'])) return;
    if (this.sentRequests.get(JSON.stringify(message['id']))?.method !== 'initialize') return;
    const version = message['result']['protocolVersion'];
    if (isLegacyProtocolVersion(version)) this.legacyRevision = version;
    if (this.#initialize?.id === JSON.stringify(message['id'])) {
      this.#initialize.result = message['result'];
      this.#noteOpened();
    }
  }

  /**
   * Tracks the requests inside bytes sent as they are (sendRaw, sendPayload): every newline-delimited line and
   * every Content-Length body that parses as JSON.
   */
  trackRawText(text: string): void {
    for (const piece of text.split(/\r?\n|Content-Length:\s*\d+\s*/i)) {
      const trimmed = piece.trim();
      if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) continue;
      try {
        this.trackOutgoing(JSON.parse(trimmed));
      } catch {
        // Not JSON (on purpose, or a fragment): nothing to track.
      }
    }
  }

  /** Removes a consumed message from the queue. */
  consume(entry: Pending): void {
    const at = this.pending.indexOf(entry);
    if (at >= 0) this.pending.splice(at, 1);
  }

  /**
   * The message a failed expectation is best compared with: a queued response with the pattern's id, then a
   * queued message with its method, then the latest queued message.
   */
  closest(pattern: unknown): Pending | undefined {
    const wanted = typeof pattern === 'object' && pattern !== null ? (pattern as Record<string, unknown>) : {};
    const byId = this.pending.find(
      (entry) => isObject(entry.message) && 'id' in wanted && JSON.stringify(entry.message['id']) === JSON.stringify(wanted['id']),
    );
    if (byId) return byId;
    const byMethod = this.pending.find(
      (entry) => isObject(entry.message) && typeof wanted['method'] === 'string' && entry.message['method'] === wanted['method'],
    );
    return byMethod ?? this.pending[this.pending.length - 1];
  }

  /** A failure comparing `pattern` with the closest queued message. */
  mismatchFailure(message: string, pattern: unknown, candidate: Pending | undefined, mismatches?: StepFailure['mismatches']): StepFailed {
    const context = this.httpNotes.length > 0 ? ` (HTTP: ${this.httpNotes.slice(-3).join(' | ')})` : '';
    return new StepFailed({
      message: message + context,
      expected: pattern,
      ...(candidate ? { actual: candidate.message, diff: diffPattern(pattern, candidate.message) } : {}),
      ...(mismatches ? { mismatches } : {}),
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
