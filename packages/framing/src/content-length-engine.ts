import {
  HEADER_BAD_LENGTH,
  HEADER_END,
  HEADER_IGNORED,
  HEADER_LENGTH_OUT_OF_RANGE,
  describeHeaderLine,
  lastHeaderName,
  parseHeaderLine,
} from './content-length-header.js';
import type { ErrorCallback, FrameCallback, FrameRangeCallback, FramingEngine } from './decoder.js';
import { isJsonWhitespace, lowerAscii } from './detect-framing.js';
import { FramingError } from './framing-error.js';
import { MAX_CONTENT_LENGTH } from './limits.js';

const LF = 0x0a;
const HEADER = 0;
const BODY = 1;
const SKIP = 2;
const RESYNC = 3;

// What resynchronisation looks for after a malformed header block. 'c' occurs only at index 0, so a
// mismatch can restart the match without a failure table.
const RESYNC_PATTERN = new Uint8Array([...'content-length:'].map((c) => c.charCodeAt(0)));

/**
 * LSP-style `Content-Length` framing. Header lines end with `\r\n` (a bare `\n` is tolerated);
 * whitespace between frames is skipped; headers other than Content-Length are ignored.
 *
 * Recovery: a body longer than `maxFrameBytes` is reported and skipped by counting, never stored, when it
 * declares at most `maxSkipBytes`. A larger declaration, or a malformed or oversized header block, is
 * reported once, then the decoder scans forward, storing nothing, for the next `Content-Length:` (any
 * case) and resumes parsing headers there. Valid JSON cannot hold that text followed by a valid value and
 * a line end (it can only sit inside a string, and a string holds no raw newline), so the scan finds the
 * next real frame; a lying length can no longer make the decoder discard the frames that follow it.
 */
export class ContentLengthEngine implements FramingEngine {
  readonly framing = 'content-length' as const;
  cursor = 0;
  private state = HEADER;
  // Header block: `inBlock` turns true on its first non-whitespace byte; `line` holds only a header
  // line that spans chunks.
  private inBlock = false;
  private headerBytes = 0;
  private line: Uint8Array | null = null;
  private lineLength = 0;
  private contentLength = -1;
  // Body spanning chunks: allocated once at its declared size, handed out, then dropped.
  private body: Uint8Array | null = null;
  private bodyLength = 0;
  private bodyReceived = 0;
  private skipRemaining = 0;
  private matched = 0;
  // Scanning the body of a frame refused as too large to count through, until a well-formed header block
  // completes: header errors there come from header-like text inside that body, which was reported already
  // (FRAME_TOO_LARGE), so they are not reported again. One error per bad frame.
  private recovering = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly maxHeaderBytes: number,
    private readonly maxSkipBytes: number,
    private readonly onFrame: FrameCallback,
    private readonly onError: ErrorCallback,
    private readonly onFrameInChunk: FrameRangeCallback = undefined,
  ) {}

  get bufferedBytes(): number {
    return this.lineLength + this.bodyReceived;
  }

  feed(chunk: Uint8Array): void {
    const length = chunk.length;
    let pos = 0;
    this.cursor = 0;
    while (pos < length) {
      if (this.state === HEADER) pos = this.readHeader(chunk, pos);
      else if (this.state === BODY) pos = this.readBody(chunk, pos);
      else if (this.state === SKIP) {
        const n = Math.min(this.skipRemaining, length - pos);
        this.skipRemaining -= n;
        pos += n;
        if (this.skipRemaining === 0) this.state = HEADER;
      } else pos = this.resync(chunk, pos);
    }
    this.cursor = length;
  }

  finish(): void {
    let error: FramingError | undefined;
    if (this.state === BODY) {
      error = new FramingError(
        'TRUNCATED_FRAME',
        `stream ended inside a Content-Length frame: ${this.bodyReceived} of ${this.bodyLength} body bytes received`,
        { framing: 'content-length', size: this.bodyReceived },
      );
    } else if (this.state === HEADER && this.inBlock) {
      error = new FramingError(
        'TRUNCATED_FRAME',
        `stream ended inside a Content-Length header block (${this.headerBytes} bytes, no empty line yet)`,
        { framing: 'content-length', size: this.headerBytes },
      );
    }
    // Oversized (SKIP) and malformed (RESYNC) frames were reported already: one error per frame.
    this.state = HEADER;
    this.resetHeader();
    this.body = null;
    this.bodyReceived = 0;
    this.skipRemaining = 0;
    this.matched = 0;
    this.recovering = false;
    if (error !== undefined) {
      const onError = this.onError;
      onError(error);
    }
  }

  private readHeader(chunk: Uint8Array, pos: number): number {
    const length = chunk.length;
    if (!this.inBlock) {
      while (pos < length && isJsonWhitespace(chunk[pos]!)) pos++;
      if (pos === length) return pos;
      this.inBlock = true;
    }
    const nl = chunk.indexOf(LF, pos);
    const consumed = (nl === -1 ? length : nl + 1) - pos;
    if (this.headerBytes + consumed > this.maxHeaderBytes) {
      const size = this.headerBytes + consumed;
      const report = !this.recovering;
      this.startResync(pos);
      if (!report) return pos;
      const onError = this.onError;
      onError(
        new FramingError(
          'HEADER_TOO_LARGE',
          `Content-Length header block exceeds maxHeaderBytes (${this.maxHeaderBytes}): ${size} bytes without the empty line that ends it; skipping to the next Content-Length header`,
          { framing: 'content-length', limit: this.maxHeaderBytes, size },
        ),
      );
      return pos;
    }
    this.headerBytes += consumed;
    if (nl === -1) {
      this.appendLine(chunk, pos, length);
      return length;
    }
    let result: number;
    let lineBytes = chunk;
    let lineStart = pos;
    let lineEnd = nl;
    if (this.lineLength > 0) {
      this.appendLine(chunk, pos, nl);
      lineBytes = this.line!;
      lineStart = 0;
      lineEnd = this.lineLength;
      result = parseHeaderLine(lineBytes, 0, lineEnd);
      this.lineLength = 0;
    } else {
      result = parseHeaderLine(chunk, pos, nl);
    }
    const next = nl + 1;
    if (result >= 0) {
      if (this.contentLength < 0 || this.contentLength === result) {
        this.contentLength = result;
        return next;
      }
      const previous = this.contentLength;
      return this.refuse(next, `conflicting Content-Length headers (${previous} and ${result})`, lineBytes, lineStart, lineEnd);
    }
    if (result === HEADER_IGNORED) return next;
    if (result === HEADER_END) return this.endOfBlock(next);
    const reason =
      result === HEADER_BAD_LENGTH
        ? 'Content-Length value must be decimal digits only (no sign, no spaces inside, not empty)'
        : result === HEADER_LENGTH_OUT_OF_RANGE
          ? `Content-Length value is out of range (max ${MAX_CONTENT_LENGTH})`
          : 'malformed header line (expected "Name: value" with an HTTP token name)';
    return this.refuse(next, reason, lineBytes, lineStart, lineEnd);
  }

  private endOfBlock(next: number): number {
    const declared = this.contentLength;
    this.resetHeader();
    if (declared < 0) {
      const report = !this.recovering;
      this.startResync(next);
      if (!report) return next;
      const onError = this.onError;
      onError(
        new FramingError(
          'INVALID_HEADER',
          'Content-Length header block has no Content-Length header; skipping to the next Content-Length header',
          { framing: 'content-length' },
        ),
      );
      return next;
    }
    this.recovering = false;
    if (declared > this.maxFrameBytes) {
      const counted = declared <= this.maxSkipBytes;
      if (counted) {
        this.state = SKIP;
        this.skipRemaining = declared;
        this.cursor = next;
      } else {
        this.startResync(next);
        this.recovering = true;
      }
      const onError = this.onError;
      onError(
        new FramingError(
          'FRAME_TOO_LARGE',
          counted
            ? `Content-Length frame of ${declared} bytes exceeds maxFrameBytes (${this.maxFrameBytes}); its body is skipped`
            : `Content-Length frame of ${declared} bytes exceeds maxFrameBytes (${this.maxFrameBytes}) and is too large to count through ` +
                `(maxSkipBytes ${this.maxSkipBytes}); skipping to the next Content-Length header`,
          { framing: 'content-length', limit: this.maxFrameBytes, size: declared },
        ),
      );
      return next;
    }
    if (declared === 0) {
      this.cursor = next;
      const onFrame = this.onFrame;
      onFrame(new Uint8Array(0));
      return next;
    }
    this.state = BODY;
    this.bodyLength = declared;
    this.bodyReceived = 0;
    return next;
  }

  private readBody(chunk: Uint8Array, pos: number): number {
    const need = this.bodyLength - this.bodyReceived;
    const available = chunk.length - pos;
    let body = this.body;
    if (body === null) {
      if (available >= need) {
        // The whole body is in this chunk: hand out a view, no copy.
        const next = pos + need;
        this.state = HEADER;
        this.cursor = next;
        const onFrameInChunk = this.onFrameInChunk;
        if (onFrameInChunk !== undefined) onFrameInChunk(chunk, pos, next);
        else {
          const onFrame = this.onFrame;
          onFrame(chunk.subarray(pos, next));
        }
        return next;
      }
      body = this.body = new Uint8Array(this.bodyLength);
    }
    const n = Math.min(need, available);
    body.set(chunk.subarray(pos, pos + n), this.bodyReceived);
    this.bodyReceived += n;
    const next = pos + n;
    if (this.bodyReceived === this.bodyLength) {
      this.body = null;
      this.bodyReceived = 0;
      this.state = HEADER;
      this.cursor = next;
      const onFrame = this.onFrame;
      onFrame(body);
    }
    return next;
  }

  private resync(chunk: Uint8Array, pos: number): number {
    const length = chunk.length;
    let matched = this.matched;
    while (pos < length) {
      const b = lowerAscii(chunk[pos++]!);
      if (b === RESYNC_PATTERN[matched]) {
        if (++matched === RESYNC_PATTERN.length) {
          // Resume as if the header line had started with the matched name.
          this.matched = 0;
          this.state = HEADER;
          this.inBlock = true;
          this.headerBytes = matched;
          this.appendLine(RESYNC_PATTERN, 0, matched);
          return pos;
        }
      } else {
        matched = b === RESYNC_PATTERN[0] ? 1 : 0;
      }
    }
    this.matched = matched;
    return pos;
  }

  /**
   * A header line that cannot be used. If it ends with a well-formed `Content-Length` header glued to what
   * precedes it without a line break (the tail of a body the decoder did not count through), that header
   * starts a new block; otherwise the block is malformed and the decoder resynchronises.
   */
  private refuse(next: number, reason: string, bytes: Uint8Array, start: number, end: number): number {
    const restart = lastHeaderName(bytes, start + 1, end);
    const value = restart === -1 ? -1 : parseHeaderLine(bytes, restart, end);
    if (value < 0) return this.invalid(next, reason, bytes, start, end);
    const report = !this.recovering;
    const header = describeHeaderLine(bytes, start, restart);
    this.resetHeader();
    this.inBlock = true;
    this.headerBytes = end + 1 - restart;
    this.contentLength = value;
    this.cursor = next;
    if (!report) return next;
    const onError = this.onError;
    onError(
      new FramingError('INVALID_HEADER', `invalid Content-Length header block: ${reason}: "${header}"; a new block starts after it`, {
        framing: 'content-length',
        header,
      }),
    );
    return next;
  }

  private invalid(next: number, reason: string, bytes: Uint8Array, start: number, end: number): number {
    const header = describeHeaderLine(bytes, start, end);
    const report = !this.recovering;
    this.startResync(next);
    if (!report) return next;
    const onError = this.onError;
    onError(
      new FramingError(
        'INVALID_HEADER',
        `invalid Content-Length header block: ${reason}: "${header}"; skipping to the next Content-Length header`,
        {
          framing: 'content-length',
          header,
        },
      ),
    );
    return next;
  }

  private startResync(cursor: number): void {
    this.resetHeader();
    this.state = RESYNC;
    this.matched = 0;
    this.cursor = cursor;
  }

  private resetHeader(): void {
    this.inBlock = false;
    this.headerBytes = 0;
    this.lineLength = 0;
    this.contentLength = -1;
    // A line buffer is at most maxHeaderBytes; drop it only when it grew beyond a typical size.
    if (this.line !== null && this.line.length > 256) this.line = null;
  }

  private appendLine(bytes: Uint8Array, start: number, end: number): void {
    const size = this.lineLength + (end - start);
    let line = this.line;
    if (line === null || line.length < size) {
      const grown = new Uint8Array(Math.max(size, Math.min(this.maxHeaderBytes, Math.max(64, size * 2))));
      if (line !== null) grown.set(line.subarray(0, this.lineLength), 0);
      line = this.line = grown;
    }
    line.set(bytes.subarray(start, end), this.lineLength);
    this.lineLength = size;
  }
}
