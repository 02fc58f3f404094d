/**
 * Live progress. On a terminal: one line, rewritten in place — cells done, failures and warnings so far, elapsed
 * time and an estimate of the time left — plus a permanent line per unexpected failure. Elsewhere (not a TTY, or
 * `CI` set): plain lines — every failure, and a progress line every tenth of the run — so that CI logs stay
 * readable.
 */
import type { CellResult } from '../runner/cell-types.js';

/** Where progress goes and how. */
export interface ProgressOptions {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Force plain lines (default: plain unless the stream is a TTY and CI is unset). */
  readonly plain?: boolean;
  /** How many of the cells actually run (the others — not applicable, skipped — finish at once); the estimate uses it. */
  readonly runnable?: number;
}

/** Decides whether progress should be plain lines: not a TTY, or running under CI. */
export function preferPlain(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return !stream.isTTY || (env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0');
}

/** `1 m 05 s`, `42 s`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  return total >= 60 ? `${Math.floor(total / 60)} m ${String(total % 60).padStart(2, '0')} s` : `${total} s`;
}

/** Reports cells as they finish. */
export class Progress {
  readonly #stream: ProgressOptions['stream'];
  readonly #plain: boolean;
  readonly #total: number;
  readonly #runnable: number;
  readonly #started = Date.now();
  #done = 0;
  #ran = 0;
  #failed = 0;
  #warned = 0;
  #errors = 0;
  #expected = 0;
  #nextMark: number;

  constructor(total: number, options: ProgressOptions) {
    this.#stream = options.stream;
    this.#plain = options.plain ?? preferPlain(options.stream);
    this.#total = total;
    this.#runnable = options.runnable ?? total;
    this.#nextMark = Math.max(1, Math.ceil(total / 10));
  }

  /** Records a finished cell; `expected` says the baseline lists it (a failure there is not news). */
  cellDone(result: CellResult, expected = false): void {
    this.#done += 1;
    if (result.process !== undefined) this.#ran += 1;
    if (result.status === 'fail' && !expected) this.#failed += 1;
    if (result.status === 'fail' && expected) this.#expected += 1;
    if (result.status === 'warn') this.#warned += 1;
    if (result.status === 'error') this.#errors += 1;
    const where = `${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}`;
    const failure =
      result.status === 'fail' && !expected
        ? `✗ ${where}: ${(result.failure?.message ?? '').split('\n')[0]!.slice(0, 200)}\n`
        : result.status === 'pass' && expected
          ? `! ${where}: passes, but the baseline expects a failure (stale entry)\n`
          : undefined;
    if (this.#plain) {
      if (failure) this.#stream.write(failure);
      if (this.#done >= this.#nextMark || this.#done === this.#total) {
        this.#stream.write(`${this.line()}\n`);
        this.#nextMark += Math.max(1, Math.ceil(this.#total / 10));
      }
      return;
    }
    const width = Math.max(40, (this.#stream.columns ?? 100) - 1);
    if (failure) this.#stream.write(`\r\x1b[2K${failure}`);
    this.#stream.write(`\r\x1b[2K${`${this.line()} · ${where}`.slice(0, width)}`);
  }

  /** The progress line: `[412/1295 31%] 0 failed, 2 warnings · 14 s, about 25 s left`. */
  line(): string {
    const elapsed = Date.now() - this.#started;
    const percent = this.#total === 0 ? 100 : Math.floor((this.#done * 100) / this.#total);
    const counts = [`${this.#failed} failed`];
    if (this.#warned > 0) counts.push(`${this.#warned} warning${this.#warned === 1 ? '' : 's'}`);
    if (this.#errors > 0) counts.push(`${this.#errors} could not run`);
    if (this.#expected > 0) counts.push(`${this.#expected} expected failures`);
    const left = this.#runnable - this.#ran;
    const eta = this.#ran >= 5 && left > 0 ? `, about ${formatDuration((elapsed / this.#ran) * left)} left` : '';
    return `[${this.#done}/${this.#total} ${percent}%] ${counts.join(', ')} · ${formatDuration(elapsed)}${eta}`;
  }

  /** Ends the progress display (clears the live line on a terminal). */
  finish(): void {
    if (!this.#plain) this.#stream.write('\r\x1b[2K');
  }
}
