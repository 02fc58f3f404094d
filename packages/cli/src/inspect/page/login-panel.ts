/**
 * "Log in" for a target that answered 401: the OAuth flow runs in the CLI process (the page never sees a token,
 * a code or the PKCE verifier); the page only opens the authorization server's page. The window is opened on the
 * click itself (so no popup blocker stops it), cut off from this page (`opener = null`), and sent to the
 * authorization URL once the CLI has it; a link is shown too, for when the window could not be opened.
 */
import { ApiError, rpc } from './api.js';
import { announce, fill, h } from './dom.js';
import { errorBox } from './results.js';

/** The `login` part of the inspector's state. */
export interface LoginState {
  readonly reason: string;
  readonly status: 'needed' | 'running' | 'done';
}

/** The login panel; hidden unless the target needs a login. */
export class LoginPanel {
  readonly element = h('section', { class: 'login', 'aria-label': 'Login', hidden: true });
  readonly #onLoggedIn: () => void;
  #window: Window | null = null;
  /**
   * An event of the running login (`open`, `done` or `failed`) has been shown. Events come on their own stream and may
   * arrive before the `login` operation's answer; that answer then must not cover what they showed.
   */
  #heard = false;

  /** `onLoggedIn` runs once the CLI is connected with the new tokens. */
  constructor(onLoggedIn: () => void) {
    this.#onLoggedIn = onLoggedIn;
  }

  /** Shows the state's login (none: hidden). */
  show(login: LoginState | null | undefined): void {
    if (!login || login.status === 'done') {
      this.element.hidden = true;
      return;
    }
    this.element.hidden = false;
    this.#render(login.reason, login.status === 'running' ? 'Waiting for the authorization server…' : undefined);
  }

  /** Handles a `login` event. */
  event(event: Record<string, unknown>): void {
    if (event.status === 'open' && typeof event.url === 'string') {
      const url = event.url;
      this.#heard = true;
      if (this.#window && !this.#window.closed) this.#window.location.href = url;
      fill(
        this.element,
        h('h2', {}, 'Log in'),
        h('p', {}, `Sign in on the authorization server (${new URL(url).host}); this page continues by itself once it has.`),
        h('p', {}, h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'Open the sign-in page')),
      );
      return announce('Sign in on the authorization server');
    }
    if (event.status === 'done') {
      this.#heard = true;
      this.element.hidden = true;
      this.#window = null;
      announce('Logged in');
      return this.#onLoggedIn();
    }
    if (event.status === 'failed') {
      this.#heard = true;
      this.#window?.close();
      this.#window = null;
      this.#render('The login failed; you may try again.', undefined, String(event.message ?? 'unknown error'));
    }
  }

  #render(reason: string, waiting?: string, failure?: string): void {
    const button = h('button', { type: 'button' }, 'Log in');
    button.addEventListener('click', () => void this.#start(button));
    fill(
      this.element,
      h('h2', {}, 'Log in'),
      h('p', {}, reason),
      failure === undefined ? undefined : errorBox(`Login failed: ${failure}`),
      waiting === undefined ? button : h('p', { role: 'status' }, waiting),
    );
  }

  async #start(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    this.#heard = false;
    // Opened now, on the click; the authorization URL comes a moment later, from the CLI.
    this.#window = window.open('about:blank', '_blank');
    if (this.#window) this.#window.opener = null;
    try {
      await rpc('login');
      if (!this.#heard) fill(this.element, h('h2', {}, 'Log in'), h('p', { role: 'status' }, 'Waiting for the authorization server…'));
    } catch (error) {
      this.#window?.close();
      this.#window = null;
      button.disabled = false;
      this.element.append(errorBox(error instanceof ApiError ? error.message : String(error)));
    }
  }
}
