import { StringDecoder } from 'node:string_decoder';

/** How much of a server's stderr is kept for error messages by default. */
export const DEFAULT_STDERR_TAIL_CHARS = 4096;

// An error message quotes at most this much of the tail: enough for a stack trace's head or a few log
// lines, short enough to read.
const MESSAGE_LINES = 8;
const MESSAGE_CHARS = 1000;

/**
 * Keeps the last few KB of a child's stderr, decoded as UTF-8 (characters split across chunks are
 * joined), so an exit can be explained with what the server said last.
 */
export class StderrTail {
  readonly #limit: number;
  readonly #decoder = new StringDecoder('utf8');
  #text = '';

  constructor(limit = DEFAULT_STDERR_TAIL_CHARS) {
    this.#limit = limit;
  }

  /** Appends a chunk; keeps only the last `limit` characters. */
  append(chunk: Uint8Array | string): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk as Buffer);
    this.#keep(text);
  }

  /** Flushes a trailing incomplete character (as U+FFFD). */
  end(): void {
    this.#keep(this.#decoder.end());
  }

  /** Everything kept, as received. */
  get text(): string {
    return this.#text;
  }

  /**
   * The last non-empty lines (at most 8, at most 1000 characters, cut at the front), trimmed; empty
   * when nothing was written.
   */
  lastLines(): string {
    const lines = this.#text.split(/\r?\n/).filter((line) => line.trim() !== '');
    let quoted = lines.slice(-MESSAGE_LINES).join('\n').trim();
    if (quoted.length > MESSAGE_CHARS) quoted = '…' + quoted.slice(quoted.length - MESSAGE_CHARS + 1);
    return quoted;
  }

  #keep(text: string): void {
    if (text === '') return;
    const joined = this.#text + text;
    this.#text = joined.length > this.#limit ? joined.slice(joined.length - this.#limit) : joined;
  }
}
