/**
 * The server's requests answered in the page: elicitation (form mode with a generated form, URL mode showing the
 * full URL and opening it only when asked), sampling (the messages, and a reply typed by the user) and roots (a list
 * of URIs). Each waits until answered here or cancelled by the server.
 */
import { rpc } from './api.js';
import { announce, h, pre } from './dom.js';
import { errorBox } from './results.js';
import { schemaForm } from './schema-form.js';

type Params = Record<string, unknown>;

/** Fields that take typed text (buttons, check boxes and the like do not). */
const TEXT_FIELD = 'input:not([type=button],[type=submit],[type=reset],[type=checkbox],[type=radio]), textarea, select, [contenteditable]';

/** Whether the focus is in a field taking typed text. */
function typingElsewhere(): boolean {
  const active = document.activeElement;
  return active instanceof HTMLElement && active.matches(TEXT_FIELD);
}

/** The region listing requests waiting for an answer. */
export class InputsPanel {
  readonly element: HTMLElement;
  readonly #cards = new Map<number, HTMLElement>();
  readonly #list: HTMLElement;
  roots = 'file:///tmp';

  constructor(readonly onCount: (count: number) => void) {
    this.#list = h('div', { class: 'inputs-list' });
    this.element = h(
      'section',
      { class: 'inputs', 'aria-label': 'Requests from the server', hidden: true },
      h('h2', {}, 'The server asks'),
      this.#list,
    );
  }

  /** Shows a new request. */
  add(id: number, method: string, params: Params): void {
    if (this.#cards.has(id)) return;
    const card = h('article', { class: 'input-card', 'aria-label': `${method} request ${id}` }, h('h3', {}, method));
    const status = h('div', {});
    const answer = async (payload: Params): Promise<void> => {
      try {
        await rpc('answer', { id, ...payload });
      } catch (error) {
        status.replaceChildren(errorBox((error as Error).message));
      }
    };
    if (method === 'elicitation/create') this.#elicitation(card, params, answer);
    else if (method === 'sampling/createMessage') this.#sampling(card, params, answer);
    else this.#roots(card, answer);
    card.append(status);
    this.#cards.set(id, card);
    this.#list.append(card);
    this.#update();
    announce(`The server asks: ${method}`);
    // Focus moves to the new card only when the user is not typing elsewhere: keystrokes must not change field midway.
    if (!typingElsewhere()) card.querySelector<HTMLElement>('input, textarea, select, button')?.focus();
  }

  /** Removes an answered or cancelled request. */
  done(id: number, outcome: string): void {
    this.#cards.get(id)?.remove();
    this.#cards.delete(id);
    this.#update();
    announce(`Request ${id} ${outcome}`);
  }

  #update(): void {
    this.element.hidden = this.#cards.size === 0;
    this.onCount(this.#cards.size);
  }

  #elicitation(card: HTMLElement, params: Params, answer: (payload: Params) => Promise<void>): void {
    card.append(h('p', { class: 'elicit-message' }, String(params.message ?? '')));
    const buttons = (): HTMLElement =>
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'submit', class: 'primary' }, 'Accept'),
        h('button', { type: 'button', onclick: () => void answer({ result: { action: 'decline' } }) }, 'Decline'),
        h('button', { type: 'button', onclick: () => void answer({ result: { action: 'cancel' } }) }, 'Cancel'),
      );
    if (params.mode === 'url') {
      const url = String(params.url ?? '');
      const safe = /^https?:\/\//i.test(url);
      card.append(
        h('p', {}, 'The server asks you to open this URL:'),
        h('p', { class: 'mono url' }, url),
        safe
          ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'Open in a new tab')
          : h('p', { class: 'muted' }, 'Not an http(s) URL: not opened.'),
      );
      const form = h('form', {}, buttons());
      form.addEventListener('submit', (event) => (event.preventDefault(), void answer({ result: { action: 'accept' } })));
      card.append(form);
      return;
    }
    const generated = schemaForm(params.requestedSchema, 'Your answer');
    const problems = h('div', {});
    const form = h('form', {}, generated.element, problems, buttons());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const read = generated.read();
      if (read.problems.length) return void problems.replaceChildren(errorBox(read.problems.join('; ')));
      void answer({ result: { action: 'accept', content: read.value } });
    });
    card.append(form);
  }

  #sampling(card: HTMLElement, params: Params, answer: (payload: Params) => Promise<void>): void {
    const reply = h('textarea', { id: `sampling-${card.childElementCount}-${Date.now()}`, rows: 4 });
    const form = h(
      'form',
      {},
      h('details', {}, h('summary', {}, 'What the server sent'), pre(params)),
      h('label', { for: reply.id }, 'Reply as the model'),
      reply,
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'submit', class: 'primary' }, 'Send reply'),
        h('button', { type: 'button', onclick: () => void answer({ error: 'The user refused the sampling request' }) }, 'Refuse'),
      ),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void answer({
        result: {
          role: 'assistant',
          content: { type: 'text', text: reply.value },
          model: 'wiremcp-inspector (typed by the user)',
          stopReason: 'endTurn',
        },
      });
    });
    card.append(form);
  }

  #roots(card: HTMLElement, answer: (payload: Params) => Promise<void>): void {
    const list = h('textarea', { id: `roots-${Date.now()}`, rows: 3 });
    list.value = this.roots;
    const form = h(
      'form',
      {},
      h('label', { for: list.id }, 'Roots (one file:// URI a line)'),
      list,
      h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Send roots')),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.roots = list.value;
      const uris = list.value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      void answer({ result: { roots: uris.map((uri) => ({ uri, name: uri.replace(/^file:\/\//, '') })) } });
    });
    card.append(form);
  }
}
