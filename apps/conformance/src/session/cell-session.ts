/**
 * What one cell talks to: a view of a raw session that starts with the cell. It sees the events that happen while
 * it is attached, with request ids translated when the process is shared (`id-translation.ts`), and without the
 * answers to the app's own requests. Closing it stops the server only when the cell owns the process.
 */
import { eraOf } from '../scenario/selectors.js';
import type { TransportId } from '../scenario/scenario-types.js';
import type { ExchangeResponse } from './http-exchange.js';
import { awaitAnswer, harnessId, isHarnessId, livenessRequest } from './harness.js';
import { IdTranslation } from './id-translation.js';
import { EventLog, type ExchangeSpec, type RawSession, type SendOptions, type SendOutcome, type SessionEvent } from './session.js';

/** Options of a {@link CellSession}. */
export interface CellSessionOptions {
  /** The cell's place on a shared process (0, 1, …); undefined when the cell has the process to itself. */
  readonly slot?: number;
  /** The cell's revision (the liveness check is `ping` in legacy revisions, `server/discover` in 2026-07-28). */
  readonly revision: string;
  /** True: closing the view stops the server. */
  readonly owns: boolean;
}

interface StderrMarks {
  stderrMark(): number;
  stderrTail(since?: number): string;
}

function hasStderrMarks(session: RawSession): session is RawSession & StderrMarks {
  return typeof (session as Partial<StderrMarks>).stderrMark === 'function';
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A cell's view of a session. */
export class CellSession implements RawSession {
  readonly transport: TransportId;
  readonly log = new EventLog();
  readonly ids: IdTranslation;
  readonly base: RawSession;
  readonly #options: CellSessionOptions;
  readonly #stderrMark: number;
  readonly #detach: () => void;
  /** Events of the base log that belong to the app's own requests (their index in the base log). */
  readonly #harnessAnswers = new Set<unknown>();
  #closed = false;

  constructor(base: RawSession, options: CellSessionOptions) {
    this.base = base;
    this.transport = base.transport;
    this.ids = new IdTranslation(options.slot);
    this.#options = options;
    this.#stderrMark = hasStderrMarks(base) ? base.stderrMark() : 0;
    this.#detach = base.log.subscribe((event) => this.#forward(event));
  }

  #forward(event: SessionEvent): void {
    if (this.#closed) return;
    if (event.kind === 'message') {
      if (isObject(event.message) && !('method' in event.message) && isHarnessId(event.message['id'])) {
        this.#harnessAnswers.add(event.message['id']);
        return;
      }
      this.log.push({ ...event, message: this.ids.incoming(event.message), at: this.log.now() });
      return;
    }
    if (event.kind === 'ended') {
      if (isHarnessId(event.requestId)) return;
      this.log.push({ ...event, requestId: this.ids.in(event.requestId), at: this.log.now() });
      return;
    }
    this.log.push({ ...event, at: this.log.now() });
  }

  /** A message the cell sends, as it goes on the wire (ids translated). */
  toWire(message: unknown): unknown {
    return this.ids.outgoing(message);
  }

  send(message: unknown, options?: SendOptions): Promise<SendOutcome> {
    return this.base.send(this.ids.outgoing(message), options);
  }

  sendPayload(payload: Uint8Array, options?: SendOptions): Promise<SendOutcome> {
    return this.base.sendPayload(payload, options);
  }

  sendRaw(bytes: Uint8Array): Promise<void> {
    return this.base.sendRaw(bytes);
  }

  /** An `http` step's request: the body goes as written (its ids are the scenario's own, on a POST of its own). */
  exchange(spec: ExchangeSpec, timeoutMs: number): Promise<ExchangeResponse> {
    if (this.base.exchange === undefined) return Promise.reject(new Error(`an http step needs an HTTP transport, not ${this.transport}`));
    return this.base.exchange(spec, timeoutMs);
  }

  cancelByTransport(id: unknown): boolean {
    return this.base.cancelByTransport(this.ids.out(id));
  }

  closeInput(): Promise<void> {
    return this.base.closeInput();
  }

  stderrTail(): string {
    return hasStderrMarks(this.base) ? this.base.stderrTail(this.#stderrMark) : this.base.stderrTail();
  }

  get started(): Promise<void> {
    return this.base.started;
  }

  isStarted(): boolean {
    return this.base.isStarted();
  }

  startError(): string | undefined {
    return this.base.startError();
  }

  /**
   * Asks the server something it answers at once (`ping`, or `server/discover` in 2026-07-28), out of the cell's
   * sight, and tells whether the answer came within `timeoutMs`. A server that answers this but not an earlier
   * request has read that request and will not answer it.
   */
  async answersPing(timeoutMs: number): Promise<boolean> {
    const id = harnessId(eraOf(this.#options.revision) === 'legacy' ? 'ping' : 'discover');
    const from = this.base.log.events.length;
    await this.base.send(livenessRequest(id, this.#options.revision));
    if (this.#harnessAnswers.has(id)) return true;
    const answer = await awaitAnswer(this.base.log, from, id, Date.now() + timeoutMs);
    return answer.kind === 'answer';
  }

  /** Detaches the view; stops the server when the cell owns it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#detach();
    if (this.#options.owns) await this.base.close();
  }
}
