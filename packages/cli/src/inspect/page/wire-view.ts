/**
 * The wire view: every entry the inspector recorded (messages both ways, HTTP requests and responses with their
 * headers, SSE events with their ids), with its time and latency, filtered by direction, kind and text, and
 * downloadable as JSON. Only the newest {@link MAX_ROWS} matching rows are drawn; the download has them all.
 */
import { fill, h, pretty } from './dom.js';

/** A recorded entry as the server sends it (see `wire-log.ts`). */
export interface WireEntry {
  readonly seq: number;
  readonly t: number;
  readonly dir: 'out' | 'in';
  readonly kind: string;
  readonly method?: string;
  readonly id?: string | number;
  readonly latencyMs?: number;
  readonly http?: { method?: string; url?: string; status?: number; of?: number };
  readonly headers?: Record<string, string>;
  readonly sse?: { id: string; event: string };
  readonly body: string;
  readonly truncated?: boolean;
}

const MAX_ROWS = 500;

function summary(entry: WireEntry): string {
  if (entry.kind === 'http-request') return `${entry.http?.method ?? ''} ${entry.http?.url ?? ''}`;
  if (entry.kind === 'http-response') return `HTTP ${entry.http?.status ?? ''} (for #${entry.http?.of ?? '?'})`;
  const what = entry.method ?? (entry.id !== undefined ? `response ${entry.id}` : '');
  return `${what}${entry.body && !what ? entry.body.slice(0, 80) : ''}`;
}

function mcpHeaders(entry: WireEntry): string {
  return Object.entries(entry.headers ?? {})
    .filter(([name]) => name.startsWith('mcp-'))
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
}

function prettyBody(body: string): string {
  try {
    return pretty(JSON.parse(body));
  } catch {
    return body;
  }
}

/** The wire panel: call `add` for each new entry. */
export class WireView {
  readonly element: HTMLElement;
  readonly #entries: WireEntry[] = [];
  readonly #rows: HTMLTableSectionElement;
  readonly #count: HTMLElement;
  readonly #dir: HTMLSelectElement;
  readonly #kind: HTMLSelectElement;
  readonly #text: HTMLInputElement;
  #scheduled = false;

  constructor(readonly onCount: (count: number) => void) {
    const redraw = (): void => this.#schedule();
    this.#dir = h(
      'select',
      { id: 'wire-dir', onchange: redraw },
      h('option', { value: '' }, 'both ways'),
      h('option', { value: 'out' }, 'client → server'),
      h('option', { value: 'in' }, 'server → client'),
    );
    this.#kind = h(
      'select',
      { id: 'wire-kind', onchange: redraw },
      h('option', { value: '' }, 'everything'),
      h('option', { value: 'message' }, 'JSON-RPC messages'),
      h('option', { value: 'http' }, 'HTTP requests and responses'),
      h('option', { value: 'sse' }, 'SSE events'),
    );
    this.#text = h('input', { id: 'wire-text', type: 'search', placeholder: 'method, id, header, text…', oninput: redraw });
    this.#count = h('span', { class: 'muted', role: 'status' });
    this.#rows = h('tbody');
    this.element = h(
      'section',
      { class: 'wire' },
      h(
        'div',
        { class: 'toolbar' },
        h('label', { for: 'wire-dir' }, 'Direction'),
        this.#dir,
        h('label', { for: 'wire-kind' }, 'Kind'),
        this.#kind,
        h('label', { for: 'wire-text' }, 'Filter'),
        this.#text,
        h('button', { type: 'button', onclick: () => this.#download() }, 'Download trace'),
        this.#count,
      ),
      h(
        'table',
        { class: 'wire-table', 'aria-label': 'Wire messages' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['#', 'ms', '', 'kind', 'what', 'latency', 'SSE id', 'Mcp-* headers'].map((title) => h('th', { scope: 'col' }, title)),
          ),
        ),
        this.#rows,
      ),
    );
  }

  /** Adds an entry (duplicates, from a history read after the stream started, are ignored). */
  add(entry: WireEntry): void {
    const last = this.#entries.at(-1);
    if (last && entry.seq <= last.seq) return;
    this.#entries.push(entry);
    this.onCount(this.#entries.length);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => {
      this.#scheduled = false;
      this.#draw();
    });
  }

  #matches(entry: WireEntry): boolean {
    if (this.#dir.value && entry.dir !== this.#dir.value) return false;
    const kind = this.#kind.value;
    if (kind === 'http' && !entry.kind.startsWith('http-')) return false;
    if (kind && kind !== 'http' && entry.kind !== kind) return false;
    const text = this.#text.value.trim().toLowerCase();
    if (!text) return true;
    return `${summary(entry)} ${String(entry.id ?? '')} ${JSON.stringify(entry.headers ?? {})} ${entry.body}`.toLowerCase().includes(text);
  }

  #draw(): void {
    const matching = this.#entries.filter((entry) => this.#matches(entry));
    const shown = matching.slice(-MAX_ROWS);
    this.#count.textContent = `${matching.length} of ${this.#entries.length} shown${matching.length > shown.length ? ` (newest ${MAX_ROWS} drawn)` : ''}`;
    fill(this.#rows, ...shown.flatMap((entry) => this.#row(entry)));
  }

  #row(entry: WireEntry): HTMLTableRowElement[] {
    const details = h('tr', { class: 'details', hidden: true });
    const toggle = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false' }, summary(entry) || '(empty)');
    toggle.addEventListener('click', () => {
      const open = details.hidden;
      details.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (open && details.childElementCount === 0) {
        const headers = Object.entries(entry.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
        details.append(
          h(
            'td',
            { colspan: 8 },
            headers.length ? h('pre', {}, headers.join('\n')) : undefined,
            entry.body ? h('pre', {}, prettyBody(entry.body) + (entry.truncated ? '\n… (cut)' : '')) : undefined,
          ),
        );
      }
    });
    const row = h(
      'tr',
      { class: `dir-${entry.dir}`, 'data-kind': entry.kind },
      h('td', {}, String(entry.seq)),
      h('td', {}, entry.t.toFixed(1)),
      h('td', { title: entry.dir === 'out' ? 'client → server' : 'server → client' }, entry.dir === 'out' ? '→' : '←'),
      h('td', {}, entry.kind),
      h('td', {}, toggle),
      h('td', {}, entry.latencyMs === undefined ? '' : `${entry.latencyMs} ms`),
      h('td', {}, entry.sse ? entry.sse.id || '(none)' : ''),
      h('td', { class: 'mono' }, mcpHeaders(entry)),
    );
    return [row, details];
  }

  #download(): void {
    const blob = new Blob([JSON.stringify({ entries: this.#entries }, null, 2)], { type: 'application/json' });
    const link = h('a', { href: URL.createObjectURL(blob), download: `wiremcp-trace-${Date.now()}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }
}
