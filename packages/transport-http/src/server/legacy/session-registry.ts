/**
 * The legacy sessions one handler serves: minting ids, the cap on how many are held, idle expiry (one sweep timer,
 * never a timer per session or request), and finding a session by id — in this process, or in the session store
 * (a session another process opened, served here again through `connect(transport, { restore })`).
 *
 * With a shared store, the store is the one source of truth: when the bus may have lost messages (its connection
 * dropped), every copy held here is checked against the store before it is served again (the `epoch`), so a session
 * deleted or changed meanwhile, or lost with a Redis restarted without its data, is never served from memory.
 */
import type { SessionState } from '../session-store.js';
import { HttpSession, snapshotOf, type SessionHost } from './http-session.js';
import { RemoteSseSession } from './remote-sse-session.js';

/** Something the registry holds and expires: a Streamable HTTP session or a 2024-11-05 HTTP+SSE session. */
export interface LiveSession {
  readonly id: string;
  readonly principalKey: string | undefined;
  lastActivityAt: number;
  readonly busy: boolean;
  /** True when it ended in this process only: the shared stores keep its state (see `HttpSession.forget`). */
  readonly keepsShared?: boolean;
  /** True once its record was deleted from the session store (by a DELETE): nothing is left to delete there. */
  readonly deletedFromStore?: boolean;
  /** True once it started to end (its transport may still be open for a moment). */
  readonly closing?: boolean;
  /** The registry epoch this copy was last checked against the session store in (absent: never needs checking). */
  verifiedEpoch?: number;
  /** Brings this copy to the state the store holds (a copy checked anew). */
  refresh?(state: SessionState): void;
  /** Drops this copy only (the store keeps the session, or already lost it). */
  forget?(): Promise<void>;
  end(graceMs?: number): Promise<void>;
}

/** What the registry needs besides what sessions need. */
export interface RegistryOptions {
  readonly maxSessions: number;
  readonly sessionIdleTimeoutMs: number;
}

/** A session id: 16 random bytes from a CSPRNG, base64url (22 visible ASCII characters). */
export function newSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * True for a copy being dropped here while the session lives on elsewhere (another process changed its state while
 * the copy was idle, or this process is draining). It is never served again: a request arriving in the moment it
 * takes to close is served by a copy restored from the store. Served by the closing copy, a GET opened a standalone
 * stream on a transport about to close, out of reach of any later state or update.
 */
function dropping(session: LiveSession): boolean {
  return session.closing === true && session.keepsShared === true;
}

/** The outcome of a lookup. */
export type Lookup = { readonly session: LiveSession } | { readonly missing: true } | { readonly unavailable: true };

/** See the module comment. */
export class SessionRegistry {
  readonly #sessions = new Map<string, LiveSession>();
  readonly #host: SessionHost;
  readonly #options: RegistryOptions;
  readonly #rehydrating = new Map<string, Promise<LiveSession | undefined | 'unavailable'>>();
  #opening = 0;
  /** Bumped each time the bus may have lost messages: copies checked in an older epoch are checked again. */
  #epoch = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastSweep = 0;

  constructor(host: SessionHost, options: RegistryOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** Sessions held now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The current epoch (what a copy verified now records). */
  get epoch(): number {
    return this.#epoch;
  }

  /** The bus may have lost messages: every copy held is checked against the store before it is served again. */
  messagesLost(): void {
    this.#epoch += 1;
  }

  /** The session held here under `id`, if any (no store lookup). */
  held(id: string): LiveSession | undefined {
    return this.#sessions.get(id);
  }

  /** The session held here under `id` when it may be served without checking the store first. */
  current(id: string): LiveSession | undefined {
    const held = this.#sessions.get(id);
    if (held === undefined || dropping(held)) return undefined;
    return held.verifiedEpoch === undefined || held.verifiedEpoch >= this.#epoch ? held : undefined;
  }

  /** Every session held (for shutdown and tests). */
  sessions(): IterableIterator<LiveSession> {
    return this.#sessions.values();
  }

  /** True when one more session may be opened (expired ones are swept first). */
  hasRoom(): boolean {
    if (this.#sessions.size + this.#opening < this.#options.maxSessions) return true;
    this.sweep();
    return this.#sessions.size + this.#opening < this.#options.maxSessions;
  }

  /** Reserves a place for a session being opened; `release` it whether or not the session opens. */
  reserve(): { release(): void } {
    this.#opening += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#opening -= 1;
      },
    };
  }

  /** Holds a session that opened. */
  add(session: LiveSession): void {
    this.#sessions.set(session.id, session);
    if (this.#timer === undefined) {
      const every = Math.max(50, Math.min(60_000, Math.floor(this.#options.sessionIdleTimeoutMs / 2)));
      this.#timer = setInterval(() => this.sweep(), every);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Forgets a session that ended (and its recorded state and events). */
  remove(session: LiveSession): void {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    if (session.keepsShared !== true) {
      if (session.deletedFromStore !== true) this.#settle(() => this.#host.sessionStore.delete(session.id, this.#host.bus?.origin));
      const store = this.#host.store;
      if (store !== undefined) this.#settle(() => store.deleteSession(session.id));
    }
    if (this.#sessions.size === 0) this.#stop();
  }

  /**
   * Finds a session: held here (checked against the store first when its copy is from an older epoch), or recorded
   * in the session store by another process (then restored here).
   */
  async lookup(id: string): Promise<Lookup> {
    const current = this.current(id);
    if (current !== undefined) return { session: current };
    let pending = this.#rehydrating.get(id);
    if (pending === undefined) {
      const held = this.#sessions.get(id);
      pending = held === undefined || dropping(held) ? this.#rehydrate(id) : this.#verify(held);
      this.#rehydrating.set(id, pending);
      void pending.finally(() => this.#rehydrating.delete(id));
    }
    const session = await pending;
    if (session === 'unavailable') return { unavailable: true };
    return session === undefined ? { missing: true } : { session };
  }

  /** Ends idle sessions; tells the store which ones are still in use. */
  sweep(): void {
    const now = this.#host.now();
    const idle = this.#options.sessionIdleTimeoutMs;
    const since = this.#lastSweep;
    this.#lastSweep = now;
    for (const session of [...this.#sessions.values()]) {
      if (session.busy) session.lastActivityAt = now;
      if (now - session.lastActivityAt >= idle) {
        // Closing it ends its transport, which removes it from here and from the stores — or, when sessions are
        // shared, from here only: the other processes may be serving it, and the shared store expires it.
        const ending = this.#host.bus !== undefined && session instanceof HttpSession ? session.forget() : session.end(0);
        void ending.finally(() => this.remove(session));
      } else if (session.lastActivityAt >= since) {
        this.#settle(() => this.#host.sessionStore.touch(session.id));
      }
    }
    if (this.#sessions.size === 0) this.#stop();
  }

  /** Ends every session (the handler is closing). */
  async closeAll(graceMs: number): Promise<void> {
    this.#stop();
    // Shared sessions outlive this process (a rolling restart): dropped here, kept in the stores for the others.
    const shared = this.#host.bus !== undefined;
    await Promise.all(
      [...this.#sessions.values()].map((session) =>
        shared && session instanceof HttpSession ? session.forget(graceMs) : session.end(graceMs),
      ),
    );
  }

  /** Checks a held copy against the store: refreshed and kept, or dropped when the store no longer has it. */
  async #verify(held: LiveSession): Promise<LiveSession | undefined | 'unavailable'> {
    const epoch = this.#epoch;
    let state: SessionState | undefined;
    try {
      state = await this.#host.sessionStore.get(held.id);
    } catch (error) {
      this.#host.report(error);
      return 'unavailable';
    }
    if (this.#sessions.get(held.id) !== held) return this.#sessions.get(held.id);
    if (state === undefined || state.protocolVersion === '') {
      // Deleted elsewhere, expired, or lost with the store's data: gone here too.
      const ending = held.forget?.() ?? held.end(0);
      await ending.finally(() => this.remove(held));
      return undefined;
    }
    held.refresh?.(state);
    held.verifiedEpoch = Math.max(held.verifiedEpoch ?? 0, epoch);
    return held;
  }

  async #rehydrate(id: string): Promise<LiveSession | undefined | 'unavailable'> {
    let state: SessionState | undefined;
    try {
      state = await this.#host.sessionStore.get(id);
    } catch (error) {
      this.#host.report(error);
      return 'unavailable';
    }
    // A live copy made meanwhile is the one served; one being dropped is replaced (`add`), never served.
    const held = this.#sessions.get(id);
    if (held !== undefined && !dropping(held)) return held;
    if (state === undefined || state.protocolVersion === '') return undefined;
    // A 2024-11-05 session lives where its stream is: messages are handed to that process, nothing is restored here.
    if (state.sseHolder !== undefined) return new RemoteSseSession(this.#host, { ...state, sseHolder: state.sseHolder });
    if (!this.hasRoom()) return undefined;
    const session = new HttpSession(this.#host, id, state.principalKey, state.createdAt);
    session.verifiedEpoch = this.#epoch;
    try {
      await session.connect(snapshotOf(state));
    } catch (error) {
      this.#host.report(error);
      return undefined;
    }
    this.add(session);
    return session;
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #settle(operation: () => void | Promise<void>): void {
    try {
      const result = operation();
      if (result) result.catch((error: unknown) => this.#host.report(error));
    } catch (error) {
      this.#host.report(error);
    }
  }
}
