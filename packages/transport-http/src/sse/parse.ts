/**
 * An incremental Server-Sent Events parser over bytes, as the WHATWG HTML "event stream interpretation" defines
 * it: lines end with CRLF, LF or CR (a CRLF split across two chunks counts once), one leading UTF-8 BOM is
 * dropped, comment lines (`:`) are ignored, `data` lines of one event are joined with LF, `id` persists across
 * events (and is ignored when it contains NUL), `retry` takes ASCII digits only, and an event that never got its
 * blank line before the end of the stream is discarded.
 *
 * It works on the bytes as they arrive, whatever the chunking: no `TextDecoderStream`, no stream wrappers, one
 * `TextDecoder.decode` per field value. A line and an event's data are bounded by `maxEventBytes`, so a server
 * that never ends a line cannot exhaust memory.
 */
import { LocalError } from '@wiremcp/protocol';

/** The default bound on one event's data (and on any single line), in bytes: 8 MiB. */
export const DEFAULT_MAX_SSE_EVENT_BYTES = 8 * 1024 * 1024;

/** One dispatched event. */
export interface ParsedSseEvent {
  /** The `event` field, or `message` when the event had none. */
  readonly type: string;
  /** The `data` lines joined with LF (`""` for a priming event's empty `data:`). */
  readonly data: string;
  /** The stream's last event id when this event was dispatched (`""` when none was ever set). */
  readonly lastEventId: string;
  /** Present when this event carried an `id` field of its own (one without inherits the stream's last id). */
  readonly hasId?: true;
}

/** Options of {@link SseParser}. */
export interface SseParserOptions {
  /** Receives every event that has at least one `data` line, in order. */
  readonly onEvent: (event: ParsedSseEvent) => void;
  /** Receives each valid `retry` value (milliseconds). */
  readonly onRetry?: (ms: number) => void;
  /** Bound on one event's data and on one line, in bytes (default {@link DEFAULT_MAX_SSE_EVENT_BYTES}). */
  readonly maxEventBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

// Field values are decoded as UTF-8 with replacement characters, as the SSE rules say; the stream's BOM is
// removed once, by hand, so that a value that starts with U+FEFF keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The parser. `push` bytes as they arrive and `end` once the stream ends. `push` throws a `LocalError` with code
 * `FRAME_TOO_LARGE` when an event or a line exceeds the bound; the parser is then reset, and the caller should
 * stop reading that stream.
 */
export class SseParser {
  /** The stream's last event id (persists across events; what a reconnection sends as `Last-Event-ID`). */
  lastEventId = '';
  /** The last `retry` value the stream sent, if any. */
  retry: number | undefined;
  readonly #onEvent: (event: ParsedSseEvent) => void;
  readonly #onRetry: ((ms: number) => void) | undefined;
  readonly #max: number;
  /** Bytes of a line not yet terminated, in arrival pieces (joined once, when the line ends). */
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  /** The `data` values of the event being built. */
  #data: string[] = [];
  #dataBytes = 0;
  #type = '';
  #idBuffer = '';
  /** The event being built has an `id` field of its own. */
  #hasId = false;
  #firstLine = true;
  /** The previous chunk ended with CR: an LF at the start of the next one ends nothing. */
  #skipLf = false;

  constructor(options: SseParserOptions) {
    this.#onEvent = options.onEvent;
    this.#onRetry = options.onRetry;
    this.#max = options.maxEventBytes ?? DEFAULT_MAX_SSE_EVENT_BYTES;
  }

  /** Parses the next bytes of the stream, dispatching every event they complete. */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let start = 0;
    if (this.#skipLf) {
      this.#skipLf = false;
      if (n > 0 && chunk[0] === LF) start = 1;
    }
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      this.#line(this.#take(chunk, start, end));
      start = end + 1;
      if (end === cr) {
        if (start < n) {
          if (chunk[start] === LF) start += 1;
        } else {
          this.#skipLf = true;
        }
      }
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
    }
    if (start < n) {
      this.#partBytes += n - start;
      if (this.#partBytes + this.#dataBytes > this.#max) this.#tooLarge();
      this.#parts.push(chunk.slice(start));
    }
  }

  /** The stream ended: an unterminated event is discarded, as the SSE rules require. */
  end(): void {
    this.#reset();
  }

  #take(chunk: Uint8Array, start: number, end: number): Uint8Array {
    if (this.#parts.length === 0) return chunk.subarray(start, end);
    const total = this.#partBytes + (end - start);
    if (total + this.#dataBytes > this.#max) this.#tooLarge();
    const line = new Uint8Array(total);
    let at = 0;
    for (const part of this.#parts) {
      line.set(part, at);
      at += part.length;
    }
    line.set(chunk.subarray(start, end), at);
    this.#parts = [];
    this.#partBytes = 0;
    return line;
  }

  #line(bytes: Uint8Array): void {
    let line = bytes;
    if (this.#firstLine) {
      this.#firstLine = false;
      if (line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    const length = line.length;
    if (length === 0) return this.#dispatch();
    if (line[0] === COLON) return;
    let colon = line.indexOf(COLON);
    if (colon === -1) colon = length;
    let valueStart = colon + 1;
    if (valueStart < length && line[valueStart] === SPACE) valueStart += 1;
    const value = valueStart < length ? line.subarray(valueStart) : undefined;
    switch (colon) {
      case 4:
        if (line[0] === 0x64 && line[1] === 0x61 && line[2] === 0x74 && line[3] === 0x61) this.#addData(value);
        return;
      case 2:
        if (line[0] === 0x69 && line[1] === 0x64 && (value === undefined || value.indexOf(0) === -1)) {
          this.#idBuffer = value === undefined ? '' : decoder.decode(value);
          this.#hasId = true;
        }
        return;
      case 5:
        if (isField(line, 'event')) this.#type = value === undefined ? '' : decoder.decode(value);
        else if (isField(line, 'retry') && value !== undefined && allDigits(value)) this.#setRetry(value);
        return;
      default:
        return;
    }
  }

  #addData(value: Uint8Array | undefined): void {
    const size = value === undefined ? 0 : value.length;
    this.#dataBytes += size + 1;
    if (this.#dataBytes > this.#max) this.#tooLarge();
    this.#data.push(value === undefined ? '' : decoder.decode(value));
  }

  #setRetry(value: Uint8Array): void {
    let ms = 0;
    for (const digit of value) ms = ms * 10 + (digit - 0x30);
    if (!Number.isSafeInteger(ms)) return;
    this.retry = ms;
    this.#onRetry?.(ms);
  }

  #dispatch(): void {
    this.lastEventId = this.#idBuffer;
    const data = this.#data;
    const type = this.#type || 'message';
    const hasId = this.#hasId;
    this.#type = '';
    this.#hasId = false;
    if (data.length === 0) return;
    this.#data = [];
    this.#dataBytes = 0;
    const joined = data.length === 1 ? data[0]! : data.join('\n');
    this.#onEvent(
      hasId ? { type, data: joined, lastEventId: this.lastEventId, hasId } : { type, data: joined, lastEventId: this.lastEventId },
    );
  }

  #reset(): void {
    this.#parts = [];
    this.#partBytes = 0;
    this.#data = [];
    this.#dataBytes = 0;
    this.#type = '';
    this.#hasId = false;
  }

  #tooLarge(): never {
    this.#reset();
    throw new LocalError('FRAME_TOO_LARGE', `A server-sent event exceeded ${this.#max} bytes`, { details: { maxEventBytes: this.#max } });
  }
}

function isField(line: Uint8Array, name: string): boolean {
  for (let i = 0; i < name.length; i++) if (line[i] !== name.charCodeAt(i)) return false;
  return true;
}

function allDigits(value: Uint8Array): boolean {
  for (const byte of value) if (byte < 0x30 || byte > 0x39) return false;
  return true;
}
