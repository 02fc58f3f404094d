/**
 * The legacy sessions one handler serves: minting ids, the cap on how many are held, idle expiry (one sweep timer,
 * never a timer per session or request), and finding a session by id — in this process, or in the session store
 * (a session another process opened, served here again through `connect(transport, { restore })`).
 */
import type { SessionState } from '../session-store.js';
import { HttpSession, snapshotOf, type SessionHost } from './http-session.js';

/** Something the registry holds and expires: a Streamable HTTP session or a 2024-11-05 HTTP+SSE session. */
export interface LiveSession {
  readonly id: string;
  readonly principalKey: string | undefined;
  lastActivityAt: number;
  readonly busy: boolean;
  /** True when it ended in this process only: the shared stores keep its state (see `HttpSession.forget`). */
  readonly keepsShared?: boolean;
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

/** The outcome of a lookup. */
export type Lookup = { readonly session: LiveSession } | { readonly missing: true } | { readonly unavailable: true };

/** See the module comment. */
export class SessionRegistry {
  readonly #sessions = new Map<string, LiveSession>();
  readonly #host: SessionHost;
  readonly #options: RegistryOptions;
  readonly #rehydrating = new Map<string, Promise<LiveSession | undefined | 'unavailable'>>();
  #opening = 0;
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

  /** The session held here under `id`, if any (no store lookup). */
  held(id: string): LiveSession | undefined {
    return this.#sessions.get(id);
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
      this.#settle(() => this.#host.sessionStore.delete(session.id));
      const store = this.#host.store;
      if (store !== undefined) this.#settle(() => store.deleteSession(session.id));
    }
    if (this.#sessions.size === 0) this.#stop();
  }

  /** Finds a session: held here, or recorded in the session store by another process (then restored here). */
  async lookup(id: string): Promise<Lookup> {
    const held = this.#sessions.get(id);
    if (held !== undefined) return { session: held };
    let pending = this.#rehydrating.get(id);
    if (pending === undefined) {
      pending = this.#rehydrate(id);
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
    await Promise.all([...this.#sessions.values()].map((session) => session.end(graceMs)));
  }

  async #rehydrate(id: string): Promise<LiveSession | undefined | 'unavailable'> {
    let state: SessionState | undefined;
    try {
      state = await this.#host.sessionStore.get(id);
    } catch (error) {
      this.#host.report(error);
      return 'unavailable';
    }
    if (state === undefined || state.protocolVersion === '' || this.#sessions.has(id)) return this.#sessions.get(id);
    if (!this.hasRoom()) return undefined;
    const session = new HttpSession(this.#host, id, state.principalKey, state.createdAt);
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
