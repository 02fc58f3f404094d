/**
 * What a cell talks to: a raw session with one server over one transport. Raw means no JSON-RPC engine in
 * between — the runner sees every message exactly as the server sent it, and can send anything, valid or not.
 */
import type { TransportId } from '../scenario/scenario-types.js';
import type { ExchangeResponse } from './http-exchange.js';

/** An `http` step's request, before the session adds its own headers. */
export interface ExchangeSpec {
  readonly method: string;
  /** Over the session's own headers; `null` removes one. */
  readonly headers: Readonly<Record<string, string | null>>;
  readonly body?: string | Uint8Array;
  /** Send the body with chunked transfer encoding. */
  readonly chunked?: boolean;
  /** An SSE answer: read this many events instead of stopping at the first message event. */
  readonly sseEvents?: number;
  /** Over the query parameters of the URL the request goes to; `null` removes one. */
  readonly query?: Readonly<Record<string, string | null>>;
}

/** HTTP details of how a message arrived (HTTP transports only). */
export interface HttpArrival {
  /** Status of the HTTP response that carried the message. */
  readonly status: number;
  /** `json` (an application/json body), `sse` (a POST's event stream), `get` (the standalone GET stream). */
  readonly via: 'json' | 'sse' | 'get';
}

/** Something that happened on a session, in order. */
export type SessionEvent =
  | { readonly kind: 'message'; readonly message: unknown; readonly at: number; readonly http?: HttpArrival }
  /** The server broke the transport's rules: stray bytes on stdout, a bad frame, a body that is not JSON… */
  | { readonly kind: 'violation'; readonly message: string; readonly at: number }
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: string | null; readonly at: number }
  /** An HTTP response that carried no JSON-RPC message (202, 4xx without a JSON body…). */
  | { readonly kind: 'http'; readonly status: number; readonly body: string; readonly at: number }
  /** HTTP: the response to the POST of request `requestId` is over and did not carry its answer (it cannot come any more). */
  | { readonly kind: 'ended'; readonly requestId: unknown; readonly status: number; readonly at: number };

/** What sending produced at the transport level. */
export interface SendOutcome {
  /** HTTP status of the POST (HTTP transports only). */
  readonly status?: number;
}

/** Options of a send. */
export interface SendOptions {
  /** HTTP only: extra headers; `null` removes one the session would add. */
  readonly headers?: Readonly<Record<string, string | null>>;
}

/**
 * An append-only log of session events that the runner reads at its own pace. Waiting is by index: "wake
 * me when there is an event beyond n, or at the deadline".
 */
export class EventLog {
  readonly events: SessionEvent[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  readonly #start = Date.now();

  /** Milliseconds since the log was created (event timestamps). */
  now(): number {
    return Date.now() - this.#start;
  }

  /** Appends an event, tells the listeners and wakes every waiter. */
  push(event: SessionEvent): void {
    this.events.push(event);
    for (const listener of [...this.#listeners]) listener(event);
    for (const wake of [...this.#waiters]) wake();
  }

  /** Calls `listener` with every event pushed from now on; returns the function that stops it. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves true as soon as the log holds more than `count` events, false when `deadline` (epoch ms) passes. */
  waitBeyond(count: number, deadline: number): Promise<boolean> {
    if (this.events.length > count) return Promise.resolve(true);
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(value);
      };
      const wake = (): void => {
        if (this.events.length > count) done(true);
      };
      const timer = setTimeout(() => done(false), remaining);
      this.#waiters.add(wake);
    });
  }
}

/** A raw connection to a server under test. */
export interface RawSession {
  readonly transport: TransportId;
  /** Everything that happened, in order. */
  readonly log: EventLog;
  /** Sends one JSON-RPC message (or a batch array) with the transport's framing/HTTP conventions. */
  send(message: unknown, options?: SendOptions): Promise<SendOutcome>;
  /** Sends a payload (possibly invalid JSON) as one message: framed on stdio, as a POST body on HTTP. */
  sendPayload(payload: Uint8Array, options?: SendOptions): Promise<SendOutcome>;
  /**
   * HTTP only (absent elsewhere): one request outside the message flow — any method, headers over the session's own
   * (`null` removes one), any body — and its response (`http` steps).
   */
  exchange?(spec: ExchangeSpec, timeoutMs: number): Promise<ExchangeResponse>;
  /** stdio only: writes exact bytes, no framing. */
  sendRaw(bytes: Uint8Array): Promise<void>;
  /**
   * Cancels request `id` the transport's own way, when it has one (modern Streamable HTTP: closing the
   * response stream). Returns false when cancellation is a `notifications/cancelled` message instead.
   */
  cancelByTransport(id: unknown): boolean;
  /** stdio only: closes the server's stdin (the spec's shutdown signal). */
  closeInput(): Promise<void>;
  /** The last bytes the server wrote to stderr (stdio) or a note about the HTTP server. */
  stderrTail(): string;
  /**
   * Resolves once the server has shown a sign of life: its first bytes on stdout, or its exit (stdio; a process
   * that is still starting — `npx` installing, a slow runtime — has done neither). At once for HTTP sessions,
   * whose server was reached before the session opened.
   */
  readonly started: Promise<void>;
  /** True once {@link started} has resolved. */
  isStarted(): boolean;
  /** Why the server process could not be started at all (a spawn error such as ENOENT), if that happened. */
  startError(): string | undefined;
  /** Ends the session: stdio closes stdin, waits, then SIGTERM and SIGKILL; HTTP aborts streams (DELETE for sessions). Idempotent. */
  close(): Promise<void>;
}
