/**
 * Live progress. On a terminal: one line, rewritten in place, plus a permanent line per unexpected failure.
 * Elsewhere (not a TTY, or `CI` set): plain lines — every failure, and a progress line every tenth of the run —
 * so that CI logs stay readable.
 */
import type { CellResult } from '../runner/cell-types.js';

/** Where progress goes and how. */
export interface ProgressOptions {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Force plain lines (default: plain unless the stream is a TTY and CI is unset). */
  readonly plain?: boolean;
}

/** Decides whether progress should be plain lines: not a TTY, or running under CI. */
export function preferPlain(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return !stream.isTTY || (env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0');
}

/** Reports cells as they finish. */
export class Progress {
  readonly #stream: ProgressOptions['stream'];
  readonly #plain: boolean;
  readonly #total: number;
  readonly #started = Date.now();
  #done = 0;
  #failed = 0;
  #skipped = 0;
  #expected = 0;
  #nextMark: number;

  constructor(total: number, options: ProgressOptions) {
    this.#stream = options.stream;
    this.#plain = options.plain ?? preferPlain(options.stream);
    this.#total = total;
    this.#nextMark = Math.max(1, Math.ceil(total / 10));
    if (this.#plain) this.#stream.write(`running ${total} cells\n`);
  }

  /** Records a finished cell; `expected` says the baseline lists it (a failure there is not news). */
  cellDone(result: CellResult, expected = false): void {
    this.#done += 1;
    if (result.status === 'fail' && !expected) this.#failed += 1;
    if (result.status === 'fail' && expected) this.#expected += 1;
    if (result.status === 'skip') this.#skipped += 1;
    const failure =
      result.status === 'fail' && !expected
        ? `✗ ${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}: ${(result.failure?.message ?? '').split('\n')[0]!.slice(0, 200)}\n`
        : result.status === 'pass' && expected
          ? `! ${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}: passes, but the baseline expects a failure (stale entry)\n`
          : undefined;
    if (this.#plain) {
      if (failure) this.#stream.write(failure);
      if (this.#done >= this.#nextMark || this.#done === this.#total) {
        this.#stream.write(`${this.#line()}\n`);
        this.#nextMark += Math.max(1, Math.ceil(this.#total / 10));
      }
      return;
    }
    const width = Math.max(40, (this.#stream.columns ?? 100) - 1);
    if (failure) this.#stream.write(`\r\x1b[2K${failure}`);
    const current = ` ${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}`;
    this.#stream.write(`\r\x1b[2K${(this.#line() + current).slice(0, width)}`);
  }

  #line(): string {
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(0);
    const percent = this.#total === 0 ? 100 : Math.floor((this.#done * 100) / this.#total);
    const expected = this.#expected > 0 ? `, ${this.#expected} expected failures` : '';
    return `[${this.#done}/${this.#total} ${percent}% ${seconds}s] ${this.#failed} failed, ${this.#skipped} skipped${expected}`;
  }

  /** Ends the progress display (clears the live line on a terminal). */
  finish(): void {
    if (!this.#plain) this.#stream.write('\r\x1b[2K');
  }
}
