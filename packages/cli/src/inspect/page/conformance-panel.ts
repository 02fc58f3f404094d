/**
 * The Conformance tab: starts the conformance app against the inspector's target and shows its report live — the
 * counts by status kept apart (a cell that checked nothing is never a pass), each cell as it finishes, and for each
 * failing cell its step, message and a link to the wire of that step (the messages the app exchanged from the start
 * of the step that failed). Everything shown comes from the app's events and is set as text only.
 */
import { ApiError, rpc } from './api.js';
import { announce, fill, h, pre } from './dom.js';
import { errorBox } from './results.js';

type Event = Record<string, unknown>;
type Transcript = { at: number; dir: 'out' | 'in' | 'note'; message?: unknown; text?: string }[];

/** The statuses in the order shown, with their words. */
const STATUSES: readonly [string, string][] = [
  ['pass', 'passed'],
  ['fail', 'failed'],
  ['warn', 'warnings'],
  ['not-exercised', 'not exercised'],
  ['not-applicable', 'not applicable'],
  ['skip', 'skipped'],
  ['error', 'errors'],
];
const FAILING = new Set(['fail', 'warn', 'error']);

const list = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function summaryOf(entry: Transcript[number]): string {
  if (entry.dir === 'note') return String(entry.text ?? '');
  const message = (entry.message ?? {}) as Record<string, unknown>;
  if (typeof message.method === 'string') return `${message.method}${message.id === undefined ? '' : ` #${JSON.stringify(message.id)}`}`;
  if (message.id !== undefined) return `${'error' in message ? 'error' : 'result'} #${JSON.stringify(message.id)}`;
  return typeof entry.message === 'string' ? entry.message.slice(0, 120) : 'message';
}

const idOf = (entry: Transcript[number]): string | undefined => {
  const id = (entry.message as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
};

/**
 * The wire of a step: its transcript entries (from the step's start) as rows — time, direction, summary, the message
 * itself — with, before them, the earlier requests that the step's answers answer (an `expect` step checks the answer
 * to a request sent by the step before it).
 */
function stepWire(transcript: Transcript, from: number | undefined): HTMLElement {
  const own = from === undefined ? transcript : transcript.filter((entry) => entry.at >= from);
  const answered = new Set(own.filter((entry) => entry.dir === 'in').map(idOf));
  const asked =
    from === undefined
      ? []
      : transcript.filter((entry) => entry.at < from && entry.dir === 'out' && idOf(entry) !== undefined && answered.has(idOf(entry)));
  const entries = [...asked, ...own];
  const arrow = { out: '→ server', in: '← server', note: 'note' } as const;
  return h(
    'table',
    { class: 'wire-table conf-wire' },
    h('thead', {}, h('tr', {}, h('th', {}, 'ms'), h('th', {}, 'dir'), h('th', {}, 'what'))),
    h(
      'tbody',
      {},
      ...entries
        .flatMap((entry) => [
          h(
            'tr',
            {},
            h('td', {}, String(entry.at)),
            h('td', {}, arrow[entry.dir] ?? String(entry.dir)),
            h('td', { class: 'mono' }, summaryOf(entry)),
          ),
          entry.message === undefined ? undefined : h('tr', { class: 'details' }, h('td', { colspan: 3 }, pre(entry.message))),
        ])
        .filter((row): row is HTMLTableRowElement => row !== undefined),
    ),
  );
}

/** The tab's state and elements. */
export class ConformancePanel {
  readonly element = h('div', { class: 'conformance' });
  readonly #countLine = h('p', { class: 'conf-counts', role: 'status', 'aria-label': 'Conformance counts' });
  readonly #rows = h('tbody', {});
  readonly #outcome = h('div', { 'aria-live': 'polite' });
  readonly #start = h('button', { type: 'submit', class: 'primary' }, 'Run conformance');
  readonly #stop = h('button', { type: 'button', disabled: true }, 'Stop');
  readonly #scenarios = h('input', { id: 'conf-scenarios', placeholder: 'e.g. tools/*, *cancel*', autocomplete: 'off' });
  readonly #revisions = h('input', { id: 'conf-revisions', placeholder: 'e.g. 2025-11-25, modern', autocomplete: 'off' });
  /** Cells at once (the app's --jobs): bounds and default come from the inspector (`conformance` state). */
  readonly #jobs = h('input', { id: 'conf-jobs', type: 'number', min: 1, max: 64, step: 1, inputmode: 'numeric', required: true });
  #run = 0;
  #total = 0;
  #counts = new Map<string, number>();
  #failures = 0;

  constructor() {
    const form = h(
      'form',
      { 'aria-label': 'Run conformance' },
      h('label', { for: 'conf-scenarios' }, 'Scenarios (globs, comma-separated; empty: all)'),
      this.#scenarios,
      h('label', { for: 'conf-revisions' }, 'Revisions (comma-separated; empty: all the target speaks)'),
      this.#revisions,
      h('label', { for: 'conf-jobs' }, 'Jobs (cells run at once)'),
      this.#jobs,
      h('div', { class: 'buttons' }, this.#start, this.#stop),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#begin();
    });
    this.#stop.addEventListener(
      'click',
      () => void rpc('conformance-stop').catch((error: Error) => fill(this.#outcome, errorBox(error.message))),
    );
    const table = h(
      'table',
      { class: 'conf-table', 'aria-label': 'Conformance cells' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Scenario'), h('th', {}, 'Transport'), h('th', {}, 'Revision'), h('th', {}, 'Status'), h('th', {}, 'Why')),
      ),
      this.#rows,
    );
    fill(
      this.element,
      h('h2', {}, 'Conformance'),
      h(
        'p',
        { class: 'muted' },
        'Runs the conformance app of this checkout against the inspected server: every scenario over every transport and revision it speaks, cell by cell.',
      ),
      form,
      this.#countLine,
      this.#outcome,
      table,
    );
  }

  /** Reads the state (a run may be going on, or have finished, before the page opened). */
  async load(): Promise<void> {
    try {
      const state = await rpc<{
        available: boolean;
        reason?: string;
        jobs?: { default: number; max: number };
        running: boolean;
        run: number;
        events: Event[];
      }>('conformance');
      if (state.jobs) {
        this.#jobs.max = String(state.jobs.max);
        if (this.#jobs.value === '') this.#jobs.value = String(state.jobs.default);
      }
      if (!state.available) {
        this.#start.disabled = true;
        fill(this.#outcome, errorBox(state.reason ?? 'conformance runs are not available'));
        return;
      }
      this.#reset(state.run);
      for (const event of state.events) this.#show(event);
      this.#busy(state.running);
    } catch (error) {
      fill(this.#outcome, errorBox((error as Error).message));
    }
  }

  /** An event of run `run` from the event stream. */
  onEvent(run: number, event: Event): void {
    if (run !== this.#run) this.#reset(run);
    this.#show(event);
  }

  async #begin(): Promise<void> {
    const jobs = Number(this.#jobs.value);
    // The browser's own check (min, max, step) first; the inspector checks again.
    if (!this.#jobs.checkValidity() || !Number.isInteger(jobs)) {
      fill(this.#outcome, errorBox(`Jobs must be a whole number from ${this.#jobs.min} to ${this.#jobs.max}.`));
      this.#jobs.focus();
      return;
    }
    this.#busy(true);
    fill(this.#outcome, h('p', { class: 'muted' }, 'Starting the conformance app…'));
    try {
      const { run } = await rpc<{ run: number }>('conformance-start', {
        scenario: list(this.#scenarios.value),
        revision: list(this.#revisions.value),
        jobs,
      });
      if (run !== this.#run) this.#reset(run);
      announce('Conformance run started');
    } catch (error) {
      this.#busy(false);
      fill(this.#outcome, errorBox(error instanceof ApiError ? error.message : String(error)));
    }
  }

  #busy(running: boolean): void {
    this.#start.disabled = running;
    this.#stop.disabled = !running;
  }

  #reset(run: number): void {
    this.#run = run;
    this.#total = 0;
    this.#failures = 0;
    this.#counts = new Map(STATUSES.map(([status]) => [status, 0]));
    this.#rows.replaceChildren();
    fill(this.#outcome);
    this.#showCounts();
  }

  #showCounts(): void {
    const done = [...this.#counts.values()].reduce((sum, count) => sum + count, 0);
    fill(
      this.#countLine,
      `${done}${this.#total ? `/${this.#total}` : ''} cells · `,
      ...STATUSES.flatMap(([status, words], index) => [
        index ? ' · ' : '',
        h('span', { class: `count-${status}`, 'data-status': status }, `${this.#counts.get(status) ?? 0} ${words}`),
      ]),
    );
  }

  #show(event: Event): void {
    if (event.type === 'start') {
      this.#total = Number(event.cells) || 0;
      this.#busy(true);
      fill(
        this.#outcome,
        h(
          'p',
          { class: 'muted' },
          `${String(event.runnable)} of ${String(event.cells)} cells to run; the others do not apply or cannot run.`,
        ),
      );
    } else if (event.type === 'cell') this.#cell((event.result ?? {}) as Record<string, unknown>);
    else if (event.type === 'end') announce(`Conformance run finished: exit code ${String(event.exitCode)}`);
    else if (event.type === 'exit') {
      this.#busy(false);
      fill(
        this.#outcome,
        event.complete === true ? h('p', { class: 'muted' }, String(event.message)) : errorBox(String(event.message)),
        event.complete !== true && typeof event.stderr === 'string' && event.stderr
          ? pre(event.stderr, { 'aria-label': 'Conformance app errors' })
          : undefined,
      );
    }
    this.#showCounts();
  }

  #cell(result: Record<string, unknown>): void {
    const status = String(result.status);
    this.#counts.set(status, (this.#counts.get(status) ?? 0) + 1);
    const failure = result.failure as { step?: number; stepLabel?: string; message?: string; stepAt?: number } | undefined;
    const why = failure
      ? `${String(failure.stepLabel ?? '')}: ${String(failure.message ?? '')}`
      : typeof result.reason === 'string'
        ? result.reason
        : '';
    const label = STATUSES.find(([name]) => name === status)?.[1] ?? status;
    const row = h(
      'tr',
      { class: `conf-${status}` },
      h('td', { class: 'mono' }, String(result.scenario ?? '')),
      h('td', {}, String(result.transport ?? '')),
      h('td', {}, String(result.revision ?? '')),
      h('td', { class: FAILING.has(status) ? 'bad' : status === 'pass' ? 'good' : 'muted' }, label),
      h('td', {}, why.slice(0, 400)),
    );
    // Failing cells first: they are what a server author came for.
    if (FAILING.has(status)) this.#rows.insertBefore(row, this.#rows.children[this.#failures * 2] ?? null);
    else this.#rows.append(row);
    if (!FAILING.has(status)) return;
    const transcript = Array.isArray(result.transcript) ? (result.transcript as Transcript) : [];
    const id = `conf-wire-${this.#run}-${++this.#failures}`;
    const details = h(
      'details',
      { id },
      h('summary', {}, failure ? `Wire of step ${String(failure.step)} (${String(failure.stepLabel ?? '')})` : 'Wire of the cell'),
      stepWire(transcript, failure?.stepAt),
      typeof result.stderr === 'string' && result.stderr ? h('h4', {}, 'Server stderr') : undefined,
      typeof result.stderr === 'string' && result.stderr ? pre(result.stderr) : undefined,
    );
    const link = h('a', { href: `#${id}`, class: 'step-link' }, 'wire of this step');
    link.addEventListener('click', () => (details.open = true));
    row.lastElementChild!.append(' — ', link);
    row.after(h('tr', { class: 'details' }, h('td', { colspan: 5 }, details)));
  }
}
