/**
 * The client's current session and what outlives it: why the last one closed (so later calls fail with that
 * reason, e.g. `SERVER_EXITED`, instead of a bare `NOT_CONNECTED`) and the `onClose` listeners.
 */
import { LocalError } from '@wiremcp/protocol';
import type { Session } from './session.js';

/** See the module comment. */
export class CurrentSession {
  /** The connected, negotiated session, if any. */
  session: Session | undefined;
  readonly #closeListeners = new Set<(error: LocalError | undefined) => void>();
  readonly #closedByClient = new WeakSet<Session>();
  #closeError: LocalError | undefined;
  readonly #report: (error: unknown) => void;

  constructor(report: (error: unknown) => void) {
    this.#report = report;
  }

  /** A new session is connected. */
  open(session: Session): void {
    this.session = session;
    this.#closeError = undefined;
  }

  /** Runs `run` on the session, or rejects when there is none (with why the last one closed, if it did not on request). */
  call<T>(method: string, run: (session: Session) => Promise<T>): Promise<T> {
    const session = this.session;
    if (session) return run(session);
    const why = this.#closeError;
    return Promise.reject(
      why
        ? new LocalError(why.code, `Cannot send '${method}': ${why.message}`, { cause: why, details: why.details })
        : new LocalError('NOT_CONNECTED', `Cannot send '${method}': the client is not connected`),
    );
  }

  /** Adds an `onClose` listener; returns the function that removes it. */
  onClose(listener: (error: LocalError | undefined) => void): () => void {
    this.#closeListeners.add(listener);
    return () => void this.#closeListeners.delete(listener);
  }

  /** Records that the client itself is closing `session` (its close is then no error). */
  closing(session: Session): void {
    this.#closedByClient.add(session);
  }

  /** The connection of `session` closed: it ends, and the listeners hear why. */
  closed(session: Session): void {
    const byClient = this.#closedByClient.has(session);
    const error = session.end(byClient);
    if (this.session === session) this.session = undefined;
    this.#closeError = byClient ? undefined : error;
    for (const listener of [...this.#closeListeners]) {
      try {
        listener(byClient ? undefined : error);
      } catch (listenerError) {
        this.#report(listenerError);
      }
    }
  }
}
