/**
 * Logging in to an HTTP target from the inspector page. When the target answers the inspector's first connection
 * with 401 (and `--auth` was not given), the page offers "Log in"; the `login` operation then runs the OAuth
 * authorization code flow with PKCE of `@wiremcp/auth` in the CLI process — discovery, registration, the verifier,
 * the code exchange and the tokens all stay here; the page only gets the authorization server's URL to open — and
 * connects again with the tokens. The redirect comes back to the CLI's loopback listener, which accepts only the
 * pending request's `state`. A failed login (the authorization server down, the login refused, the wait timed out)
 * is reported to the page, which may try again.
 */
import type { InspectorEvent } from './inspector-session.js';

/** What the page is told about the login, in `state`. */
export interface LoginView {
  /** Why the login is needed (the target's refusal). */
  readonly reason: string;
  /** `needed` until a login succeeds; `running` while one waits for the user. */
  readonly status: 'needed' | 'running' | 'done';
}

/**
 * Runs one login: `open` is called with the authorization URL the user must visit; resolves once connected.
 * (The inspector passes a function that connects with `auth: true` and `authOpen: open`.)
 */
export type LoginRunner = (open: (url: URL) => void) => Promise<void>;

/** The login offered to the page; see the module comment. */
export class InspectorLogin {
  readonly #run: LoginRunner;
  readonly #emit: (event: InspectorEvent) => void;
  readonly #reason: string;
  #status: LoginView['status'] = 'needed';

  constructor(reason: string, run: LoginRunner, emit: (event: InspectorEvent) => void) {
    this.#reason = reason;
    this.#run = run;
    this.#emit = emit;
  }

  /** The state the page shows. */
  get view(): LoginView {
    return { reason: this.#reason, status: this.#status };
  }

  /**
   * Starts a login unless one is running or done (`false` then); it goes on in the background, its progress told
   * through `login` events: `open` (with the URL), then `done` or `failed`.
   */
  start(): boolean {
    if (this.#status !== 'needed') return false;
    this.#status = 'running';
    void this.#run((url) => {
      // Only a web page may be handed to the browser (the URL comes from the authorization server's metadata).
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`refusing to open a ${url.protocol} authorization URL`);
      this.#emit({ type: 'login', status: 'open', url: url.href });
    }).then(
      () => {
        this.#status = 'done';
        this.#emit({ type: 'login', status: 'done' });
      },
      (error: unknown) => {
        this.#status = 'needed';
        const message = error instanceof Error ? error.message : String(error);
        this.#emit({ type: 'login', status: 'failed', message: message.slice(0, 1000) });
      },
    );
    return true;
  }
}
