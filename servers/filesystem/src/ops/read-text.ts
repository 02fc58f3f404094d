/**
 * Reading part of a text file from an open handle, with a byte cap: a byte range (`offset`/`length`), a line
 * range, the first N lines, or the last N lines. Every slice says where it starts and ends, whether the file goes on,
 * and where to continue; nothing reads more than the cap plus one chunk.
 */
import type { FileHandle } from 'node:fs/promises';
import { FsError } from '../sandbox/errors.js';
import { BOM_LENGTH, SNIFF_BYTES, binaryReason, cutPoint, hasBom, isContinuation, wholeCharacters } from './text-format.js';

const CHUNK = 64 * 1024;
const decoder = new TextDecoder('utf-8');

/** A slice of a text file. */
export interface TextSlice {
  text: string;
  /** Byte offset of the slice's first byte. */
  offset: number;
  /** Bytes in the slice. */
  bytes: number;
  /** File size. */
  size: number;
  /** The file starts with a UTF-8 BOM (never included in `text`). */
  bom: boolean;
  /** True when the file has bytes after the slice that the request asked for but the cap cut off. */
  truncated: boolean;
  /** Where to continue reading (bytes), when there is more after the slice. */
  nextOffset?: number;
  /** 1-based first line of the slice, for line requests. */
  startLine?: number;
  /** 1-based last line of the slice, for line requests. */
  endLine?: number;
  /** The line to continue from, for line requests that were cut. */
  nextLine?: number;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Reads the start of the file and refuses it when it is not UTF-8 text; returns whether it has a BOM. */
export async function sniffText(file: FileHandle, size: number, path: string): Promise<boolean> {
  const head = await readAt(file, 0, Math.min(size, SNIFF_BYTES));
  const reason = binaryReason(head);
  if (reason) throw new FsError('binary_file', `Not a text file: ${path} (${reason}); use read_media_file for binary files`);
  return hasBom(head);
}

/** A byte range: from `offset` (default: after the BOM), at most `length` bytes and never more than `cap`. */
export async function readRange(
  file: FileHandle,
  size: number,
  bom: boolean,
  offset: number | undefined,
  length: number | undefined,
  cap: number,
): Promise<TextSlice> {
  let start = offset ?? (bom ? BOM_LENGTH : 0);
  if (bom && start < BOM_LENGTH) start = BOM_LENGTH;
  if (start > size) start = size;
  const want = Math.min(length ?? cap, cap);
  let bytes = await readAt(file, start, Math.min(want, size - start));
  // A start inside a character (an offset that was not given by this server) moves to the next character.
  let skip = 0;
  while (skip < 3 && isContinuation(bytes[skip])) skip++;
  if (skip > 0) {
    start += skip;
    bytes = bytes.subarray(skip);
  }
  const byCap = length === undefined || length > cap;
  let kept = bytes.length;
  if (start + bytes.length < size) {
    // Cut by the cap: end on a line (else a character) boundary. Cut by the requested length: on a character.
    kept = byCap ? cutPoint(bytes) : wholeCharacters(bytes);
    if (kept === 0) kept = bytes.length;
  }
  const stop = start + kept;
  const slice: TextSlice = { text: decoder.decode(bytes.subarray(0, kept)), offset: start, bytes: kept, size, bom, truncated: false };
  if (stop < size) {
    slice.nextOffset = stop;
    slice.truncated = byCap;
  }
  return slice;
}

/**
 * Lines `first`..`last` (1-based, inclusive; `last` undefined = to the end), at most `cap` bytes of whole lines. A
 * line is the text up to and including its `\n`; a final line without one counts too. Scans from the start.
 */
export async function readLines(
  file: FileHandle,
  size: number,
  bom: boolean,
  first: number,
  last: number | undefined,
  cap: number,
  signal?: AbortSignal,
): Promise<TextSlice> {
  let position = bom ? BOM_LENGTH : 0;
  let line = 1;
  while (line < first && position < size) {
    if (signal?.aborted) throw new FsError('time_budget_exceeded', 'The call ran out of its time budget while looking for the line');
    const chunk = await readAt(file, position, Math.min(CHUNK, size - position));
    let index = 0;
    while (line < first) {
      const newline = chunk.indexOf(10, index);
      if (newline === -1) break;
      line++;
      index = newline + 1;
    }
    position += line < first ? chunk.length : index;
  }
  const slice: TextSlice = { text: '', offset: position, bytes: 0, size, bom, truncated: false, startLine: first, endLine: first - 1 };
  if (line < first || position >= size) return slice;
  const wanted = last === undefined ? Number.POSITIVE_INFINITY : last - first + 1;
  const committed: Uint8Array[] = [];
  let taken = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let lines = 0;
  let cursor = position;
  let capped = false;
  while (cursor < size && lines < wanted && !capped) {
    const chunk = await readAt(file, cursor, Math.min(CHUNK, size - cursor));
    cursor += chunk.length;
    let index = 0;
    while (index < chunk.length) {
      const newline = chunk.indexOf(10, index);
      const lineEnd = newline === -1 ? chunk.length : newline + 1;
      pending.push(chunk.subarray(index, lineEnd));
      pendingBytes += lineEnd - index;
      index = lineEnd;
      if (taken + pendingBytes > cap) {
        capped = true;
        break;
      }
      if (newline !== -1) {
        committed.push(...pending);
        taken += pendingBytes;
        pending = [];
        pendingBytes = 0;
        if (++lines >= wanted) break;
      }
    }
  }
  if (!capped && pendingBytes > 0 && lines < wanted && cursor >= size) {
    // The last line of the file, without a final newline.
    committed.push(...pending);
    taken += pendingBytes;
    lines++;
  }
  if (capped && lines === 0) {
    throw new FsError('too_large', `Line ${first} alone is longer than ${cap} bytes; read it with offset and length instead`);
  }
  const data = Buffer.concat(committed);
  slice.text = decoder.decode(data);
  slice.bytes = taken;
  slice.endLine = first + lines - 1;
  const stop = position + taken;
  if (stop < size) {
    slice.nextOffset = stop;
    slice.nextLine = slice.endLine + 1;
    slice.truncated = capped;
  }
  return slice;
}

/**
 * The last `count` lines: a file ending with `\n` has no empty line after it (the official server's tail returns
 * one line too few there). Reads backwards in chunks; keeps at most `cap` bytes, dropping whole lines from the top
 * (then `truncated` is set and `offset` says where the slice starts).
 */
export async function readTail(file: FileHandle, size: number, bom: boolean, count: number, cap: number): Promise<TextSlice> {
  const floor = bom ? BOM_LENGTH : 0;
  if (size <= floor || count <= 0) return { text: '', offset: size, bytes: 0, size, bom, truncated: false };
  const last = await readAt(file, size - 1, 1);
  // The final newline ends the last line; it does not start another one.
  let position = last[0] === 10 ? size - 1 : size;
  let start = floor;
  let found = 0;
  let tooMuch = false;
  search: while (position > floor) {
    if (size - position > cap) {
      tooMuch = true;
      break;
    }
    const from = Math.max(floor, position - CHUNK);
    const chunk = await readAt(file, from, position - from);
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] === 10 && ++found === count) {
        start = from + i + 1;
        break search;
      }
    }
    position = from;
  }
  let truncated = false;
  if (tooMuch || size - start > cap) {
    truncated = true;
    const window = await readAt(file, size - cap, cap);
    const newline = window.indexOf(10);
    // Drop the partial first line; a single line longer than the cap keeps its last whole characters.
    start = size - cap + (newline !== -1 && newline < window.length - 1 ? newline + 1 : cutStart(window));
  }
  const data = await readAt(file, start, size - start);
  return { text: decoder.decode(data), offset: start, bytes: data.length, size, bom, truncated };
}

function cutStart(bytes: Uint8Array): number {
  let index = 0;
  while (index < 3 && isContinuation(bytes[index])) index++;
  return index;
}
