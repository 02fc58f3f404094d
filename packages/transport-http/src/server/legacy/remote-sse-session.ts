/**
 * A 2024-11-05 HTTP+SSE session whose stream another process holds (found in the shared session store): a message
 * POSTed here is handed to that process on the bus, which delivers it to the session; the answer travels on the
 * session's stream, as always. When that process died, the session died with its stream: its record is deleted
 * and the POST gets 404.
 */
import type { SessionState } from '../session-store.js';
import type { LiveSession } from './session-registry.js';
import type { SessionHost } from './http-session.js';
import type { HttpRequest } from '../adapter-contract.js';

/** Request headers not handed to another process: credentials stay where they arrived. */
const PRIVATE_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'dpop']);

/** See the module comment. Not held by the registry: one is made for each POST that needs it. */
export class RemoteSseSession implements LiveSession {
  readonly id: string;
  readonly principalKey: string | undefined;
  readonly holder: string;
  lastActivityAt: number;
  readonly busy = false;
  readonly #host: SessionHost;

  constructor(host: SessionHost, state: SessionState & { readonly sseHolder: string }) {
    this.#host = host;
    this.id = state.id;
    this.principalKey = state.principalKey;
    this.holder = state.sseHolder;
    this.lastActivityAt = host.now();
  }

  /**
   * Hands one POSTed message to the process holding the stream: `'delivered'`, `'gone'` when that process died (the
   * record is deleted), or `'unavailable'` when the bus cannot take it.
   */
  async deliver(message: unknown, request: HttpRequest, auth: unknown): Promise<'delivered' | 'gone' | 'unavailable'> {
    const bus = this.#host.bus;
    if (bus === undefined) return 'gone';
    let alive: boolean | undefined;
    try {
      alive = await bus.alive?.(this.holder);
    } catch {
      alive = undefined;
    }
    if (alive === false) {
      try {
        await this.#host.sessionStore.delete(this.id, bus.origin);
      } catch (error) {
        this.#host.report(error);
      }
      return 'gone';
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (!PRIVATE_HEADERS.has(name)) headers[name] = value;
    });
    try {
      await bus.publishNow({
        kind: 'deliver',
        origin: bus.origin,
        target: this.holder,
        sessionId: this.id,
        json: JSON.stringify(message),
        headers,
        ...(auth === undefined ? {} : { auth }),
      });
    } catch (error) {
      this.#host.report(error);
      return 'unavailable';
    }
    return 'delivered';
  }

  end(): Promise<void> {
    return Promise.resolve();
  }
}
