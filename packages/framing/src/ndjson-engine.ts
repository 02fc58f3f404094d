import type { ErrorCallback, FrameCallback, FrameRangeCallback, FramingEngine } from './decoder.js';
import { FramingError } from './framing-error.js';

const LF = 0x0a;
const CR = 0x0d;
// Smallest buffer allocated for a line that spans chunks; lines are usually a few hundred bytes.
const MIN_CAPACITY = 256;

/** True when `bytes[start, end)` holds only spaces, tabs and CRs. Exits on the first byte of a JSON line. */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}

/**
 * Newline-delimited JSON: one payload per line. A trailing `\r` is stripped, blank lines are skipped,
 * and a line longer than `maxFrameBytes` is reported once and discarded up to its newline without
 * being stored.
 */
export class NdjsonEngine implements FramingEngine {
  readonly framing = 'ndjson' as const;
  cursor = 0;
  // The unfinished line (owned copy). Handed out as the payload when it completes, then dropped, so
  // a payload is never overwritten.
  private pending: Uint8Array | null = null;
  private pendingLength = 0;
  // A chunk ended with '\r': kept as a flag rather than a byte so a line of exactly maxFrameBytes
  // followed by CRLF never needs maxFrameBytes + 1 bytes of storage.
  private crHeld = false;
  private discarding = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onFrame: FrameCallback,
    private readonly onError: ErrorCallback,
    private readonly onFrameInChunk: FrameRangeCallback = undefined,
  ) {}

  get bufferedBytes(): number {
    return this.pendingLength;
  }

  feed(chunk: Uint8Array): void {
    const length = chunk.length;
    const max = this.maxFrameBytes;
    const onFrame = this.onFrame;
    const onFrameInChunk = this.onFrameInChunk;
    let pos = 0;
    this.cursor = 0;
    if (this.crHeld && length > 0) {
      this.crHeld = false;
      if (chunk[0] === LF) {
        pos = 1;
        this.completePending(chunk, 1, 1, 1);
      } else {
        this.append(new Uint8Array([CR]), 0, 1, 0);
      }
    }
    while (pos < length) {
      const nl = chunk.indexOf(LF, pos);
      if (this.discarding) {
        if (nl === -1) break;
        this.discarding = false;
        pos = nl + 1;
        continue;
      }
      if (nl === -1) {
        let end = length;
        if (chunk[end - 1] === CR) {
          end--;
          this.crHeld = true;
        }
        this.append(chunk, pos, end, length);
        break;
      }
      const next = nl + 1;
      let end = nl;
      if (end > pos && chunk[end - 1] === CR) end--;
      if (this.pending !== null) {
        this.completePending(chunk, pos, end, next);
      } else if (end - pos > max) {
        this.cursor = next;
        const onError = this.onError;
        onError(this.tooLarge(end - pos, true));
      } else if (end > pos && !isBlank(chunk, pos, end)) {
        this.cursor = next;
        if (onFrameInChunk !== undefined) onFrameInChunk(chunk, pos, end);
        else onFrame(chunk.subarray(pos, end));
      }
      pos = next;
    }
    this.cursor = length;
  }

  finish(): void {
    this.crHeld = false;
    if (this.discarding) {
      // Already reported when the line crossed the limit: one error per frame.
      this.discarding = false;
      return;
    }
    const pending = this.pending;
    if (pending === null) return;
    const payload = pending.subarray(0, this.pendingLength);
    this.pending = null;
    this.pendingLength = 0;
    const onFrame = this.onFrame;
    if (!isBlank(payload, 0, payload.length)) onFrame(payload);
  }

  /** Ends the pending line with `chunk[start, end)`; `next` is the first byte after its newline. */
  private completePending(chunk: Uint8Array, start: number, end: number, next: number): void {
    const size = this.pendingLength + (end - start);
    if (size > this.maxFrameBytes) {
      this.drop();
      this.cursor = next;
      const onError = this.onError;
      onError(this.tooLarge(size, true));
      return;
    }
    this.reserve(size, true);
    const pending = this.pending!;
    pending.set(chunk.subarray(start, end), this.pendingLength);
    this.pending = null;
    this.pendingLength = 0;
    this.cursor = next;
    const onFrame = this.onFrame;
    if (!isBlank(pending, 0, size)) onFrame(pending.subarray(0, size));
  }

  /** Stores `bytes[start, end)` as part of the unfinished line, or starts discarding it if too long. */
  private append(bytes: Uint8Array, start: number, end: number, next: number): void {
    const size = this.pendingLength + (end - start);
    if (size > this.maxFrameBytes) {
      this.drop();
      this.crHeld = false;
      this.discarding = true;
      this.cursor = next;
      const onError = this.onError;
      onError(this.tooLarge(size, false));
      return;
    }
    if (end === start) return;
    this.reserve(size, false);
    this.pending!.set(bytes.subarray(start, end), this.pendingLength);
    this.pendingLength = size;
  }

  /** Makes room for `size` bytes; the last growth of a line is exact, earlier ones double. */
  private reserve(size: number, exact: boolean): void {
    const pending = this.pending;
    if (pending !== null && pending.length >= size) return;
    const wanted = exact ? size : Math.max(MIN_CAPACITY, size * 2, pending === null ? 0 : pending.length * 2);
    const grown = new Uint8Array(Math.min(this.maxFrameBytes, wanted));
    if (pending !== null) grown.set(pending.subarray(0, this.pendingLength), 0);
    this.pending = grown;
  }

  private drop(): void {
    this.pending = null;
    this.pendingLength = 0;
  }

  private tooLarge(size: number, complete: boolean): FramingError {
    const limit = this.maxFrameBytes;
    const message = complete
      ? `NDJSON line of ${size} bytes exceeds maxFrameBytes (${limit}); the line was skipped`
      : `NDJSON line exceeds maxFrameBytes (${limit}): at least ${size} bytes without a newline; discarding it up to the next newline`;
    return new FramingError('FRAME_TOO_LARGE', message, { framing: 'ndjson', limit, size });
  }
}
