/**
 * What the raw sessions with a network endpoint — Streamable HTTP, HTTP+SSE and WebSocket — share, in one place:
 * their server was reached (the warm-up) before the session opened, so it counts as started at once and has no
 * start error; there is no stderr to show, only a note about the server; closing stdin has no counterpart unless
 * the transport has one (WebSocket's normal close); and closing runs once, every later call getting the same promise.
 */
import { EventLog } from './session.js';

/** The shared part of a network session; a subclass adds the transport and says how it closes (`closeOnce`). */
export abstract class EndpointSession {
  readonly log = new EventLog();
  /** The server was reached before the session opened; sends wait for the connection. */
  readonly started: Promise<void> = Promise.resolve();
  readonly #note: string;
  #closed: Promise<void> | undefined;

  constructor(note: string) {
    this.#note = note;
  }

  isStarted(): boolean {
    return true;
  }

  startError(): string | undefined {
    return undefined;
  }

  /** The note about the server (a network server's output is not the session's to read). */
  stderrTail(): string {
    return this.#note;
  }

  /** Refused: closing stdin is a stdio notion. A transport with a counterpart overrides it. */
  closeInput(): Promise<void> {
    return Promise.reject(new Error('closeStdin needs a stdio transport'));
  }

  /** True once {@link close} was called. */
  protected get closing(): boolean {
    return this.#closed !== undefined;
  }

  /** Ends the session: {@link closeOnce} runs on the first call; every call resolves when it has finished. */
  close(): Promise<void> {
    this.#closed ??= this.closeOnce();
    return this.#closed;
  }

  /** Ends the transport's streams or connection; called once. Never rejects. */
  protected abstract closeOnce(): Promise<void>;
}
