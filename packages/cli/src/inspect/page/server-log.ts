/**
 * The server's log messages (`notifications/message`, sent over a 2025-11-25 or older session), newest first, and
 * a banner for those of a server run by `wiremcp dev` (logger `wiremcp dev`): a build error or a server that did not
 * start stays in view, as an alert, until the next successful restart replaces it — so someone editing a server
 * sees the error where they test it, and sees it go away when fixed.
 */
import { announce, fill, h } from './dom.js';

/** The logger name `wiremcp dev` sends its events under. */
const DEV_LOGGER = 'wiremcp dev';
/** The levels of a failure. */
const SEVERE = new Set(['error', 'critical', 'alert', 'emergency']);
/** How many messages the list keeps (the wire view has them all). */
const KEPT = 50;

/** The log panel; {@link ServerLog.add} takes each `notifications/message`'s params. */
export class ServerLog {
  readonly element: HTMLElement;
  readonly #banner = h('div', { class: 'dev-banner', hidden: true });
  readonly #list = h('ol', { class: 'log-list', reversed: true });
  /** What `dev` said since the last change, and whether a change came since. */
  #said: { level: string; text: string }[] = [];
  #fresh = false;

  constructor() {
    this.element = h(
      'section',
      { class: 'server-log', 'aria-label': 'Server log', hidden: true },
      this.#banner,
      h('details', {}, h('summary', {}, 'Server log'), this.#list),
    );
  }

  /** Shows one log message. */
  add(params: Record<string, unknown>): void {
    const level = typeof params.level === 'string' ? params.level : 'info';
    const logger = typeof params.logger === 'string' ? params.logger : undefined;
    const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data ?? null);
    this.element.hidden = false;
    this.#list.prepend(h('li', { class: `log-${level}` }, `${level}${logger ? ` ${logger}` : ''}: `, h('span', {}, text)));
    while (this.#list.children.length > KEPT) this.#list.lastElementChild!.remove();
    if (logger === DEV_LOGGER) this.#dev(level, text);
  }

  /**
   * The banner shows what `dev` said since the last change of a file (a `debug` message): the build error, or the
   * restart with its warnings; its look follows the worst of them.
   */
  #dev(level: string, text: string): void {
    if (level === 'debug') {
      this.#fresh = true;
      return;
    }
    if (this.#fresh) this.#said = [];
    this.#fresh = false;
    this.#said = [...this.#said.slice(-4), { level, text }];
    const failed = this.#said.some((said) => SEVERE.has(said.level));
    const warned = this.#said.some((said) => said.level === 'warning');
    this.#banner.hidden = false;
    this.#banner.className = `dev-banner ${failed ? 'bad' : warned ? 'warn' : 'good'}`;
    this.#banner.setAttribute('role', failed || warned ? 'alert' : 'status');
    fill(this.#banner, ...this.#said.map((said) => h('pre', {}, said.text)));
    announce(text.split('\n')[0]!);
  }
}
