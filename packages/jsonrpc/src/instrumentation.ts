/**
 * The engine's observation seam: what a tracer or a metrics recorder sees of each MCP operation, without the
 * engine knowing either. Client and server call {@link startOperation} when a request is sent or starts being
 * handled and {@link endOperation} when it settles; with no instrumentation installed they call neither, so an
 * uninstrumented client or server pays one `undefined` check per request.
 */
import type { RequestId } from '@wiremcp/protocol';
import type { MessageInfo } from './transport.js';

/** One MCP operation as an instrumentation sees it: read-only, taken from what is already parsed. */
export interface McpOperation {
  /** Which side observes it: a client sending, or a server handling. */
  readonly side: 'client' | 'server';
  readonly kind: 'request' | 'notification';
  readonly method: string;
  /** The JSON-RPC id (requests only). */
  readonly id?: RequestId;
  /** The params as sent or received (do not modify them). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The revision this operation is spoken in, when known. */
  readonly protocolVersion?: string;
  /** The session (legacy `Mcp-Session-Id`), when there is one. */
  readonly sessionId?: string;
  /** Server side: what the transport attached (HTTP headers, auth); absent on stdio. */
  readonly info?: MessageInfo;
}

/** How an operation ended: with a result (a tool result with `isError: true` included), or with an error. */
export type OperationOutcome =
  { readonly result: unknown; readonly error?: undefined } | { readonly error: unknown; readonly result?: undefined };

/** Follows one operation from start to end. Each of its callbacks may throw: the engine reports it and goes on. */
export interface OperationObserver {
  /** Client side: `_meta` keys to add to the request (e.g. `traceparent`); keys the caller set are kept. */
  readonly meta?: Readonly<Record<string, string>>;
  /** Server side: runs the handler (e.g. inside the operation's tracing context); must call `fn` once and return its value. */
  run?<T>(fn: () => T): T;
  /** Called once when the operation settles. */
  end(outcome: OperationOutcome): void;
}

/** A session as an instrumentation sees it: a legacy session once initialized, a stdio connection, a client's connection. */
export interface McpSession {
  readonly side: 'client' | 'server';
  readonly protocolVersion?: string;
  readonly sessionId?: string;
}

/** Follows one session until it closes. */
export interface SessionObserver {
  /** Called once when the session closes. */
  end(): void;
}

/** Observes MCP operations; see the module comment. */
export interface Instrumentation {
  /** Called when an operation starts; returns its observer, or `undefined` to leave it unobserved. */
  start(operation: McpOperation): OperationObserver | undefined;
  /** Called when a session opens; returns its observer, or `undefined`. */
  session?(session: McpSession): SessionObserver | undefined;
}

/** Starts observing a session; a throwing instrumentation is reported. Returns what ends it (never throws). */
export function startSession(instrumentation: Instrumentation, session: McpSession, report: (error: unknown) => void): () => void {
  let observer: SessionObserver | undefined;
  try {
    observer = instrumentation.session?.(session) ?? undefined;
  } catch (error) {
    report(error);
  }
  if (observer === undefined) return () => {};
  return () => {
    try {
      observer.end();
    } catch (error) {
      report(error);
    }
  };
}

/** Starts observing `operation`; a throwing instrumentation is reported and the operation goes unobserved. */
export function startOperation(
  instrumentation: Instrumentation,
  operation: McpOperation,
  report: (error: unknown) => void,
): OperationObserver | undefined {
  try {
    return instrumentation.start(operation) ?? undefined;
  } catch (error) {
    report(error);
    return undefined;
  }
}

/** Ends an observation; a throwing observer is reported, never thrown into the operation. */
export function endOperation(observer: OperationObserver, outcome: OperationOutcome, report: (error: unknown) => void): void {
  try {
    observer.end(outcome);
  } catch (error) {
    report(error);
  }
}

/**
 * Runs `fn` inside the observer (its `run`, when it has one) and ends the observation when the value `fn` returns
 * (or the promise it returns) settles. A `run` that throws before calling `fn` is reported and `fn` runs without it.
 */
export function observeOutcome<T>(observer: OperationObserver, fn: () => T | Promise<T>, report: (error: unknown) => void): T | Promise<T> {
  let value: T | Promise<T>;
  try {
    value = runInside(observer, fn, report);
  } catch (error) {
    endOperation(observer, { error }, report);
    throw error;
  }
  if (value instanceof Promise) {
    return value.then(
      (result) => {
        endOperation(observer, { result }, report);
        return result;
      },
      (error: unknown) => {
        endOperation(observer, { error }, report);
        throw error;
      },
    );
  }
  endOperation(observer, { result: value }, report);
  return value;
}

function runInside<T>(observer: OperationObserver, fn: () => T, report: (error: unknown) => void): T {
  if (observer.run === undefined) return fn();
  let called = false;
  let returned = false;
  let value: T | undefined;
  try {
    return observer.run(() => {
      called = true;
      value = fn();
      returned = true;
      return value;
    });
  } catch (error) {
    // An error of the handler itself is the operation's; one the observer raised around it is reported.
    if (returned) {
      report(error);
      return value as T;
    }
    if (called) throw error;
    report(error);
    return fn();
  }
}
