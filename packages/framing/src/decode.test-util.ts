// Test helpers (not part of the package build): run a decoder over chunks and record what it emits.
import { createDecoder } from './create-decoder.js';
import type { DecoderOptions, FrameDecoder } from './decoder.js';
import type { FramingError } from './framing-error.js';

export type DecodeEvent = { kind: 'frame'; payload: Uint8Array } | { kind: 'error'; error: FramingError };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Strict UTF-8 decoding (throws on a split character, which would reveal a framing bug). */
export function text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The parts joined into one new array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Splits `bytes` at the given cut positions (any order, duplicates and out-of-range ignored). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const sorted = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...sorted, bytes.length]) {
    chunks.push(bytes.slice(from, cut));
    from = cut;
  }
  return chunks;
}

/** Fixed-size chunks, each its own ArrayBuffer. */
export function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

/** Named chunkings of one stream: whole, every byte, fixed sizes, and every two-way split point. */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  const result: Array<[string, Uint8Array[]]> = [
    ['whole', [bytes.slice()]],
    ['every byte', chunksOf(bytes, 1)],
  ];
  for (const size of [2, 3, 7, 64]) result.push([`chunks of ${size}`, chunksOf(bytes, size)]);
  for (let cut = 1; cut < bytes.length; cut++) result.push([`split at ${cut}`, splitAt(bytes, [cut])]);
  return result;
}

export interface Recorder {
  decoder: FrameDecoder;
  events: DecodeEvent[];
  /** Frames as strings and errors as `!CODE`, in delivery order. */
  summary(): string[];
  frames(): string[];
  errors(): FramingError[];
}

/**
 * A decoder that records events. Payloads are kept as delivered and decoded only when asked, so every
 * assertion also checks that earlier payload views were not overwritten by later pushes.
 */
export function record(options: Omit<DecoderOptions, 'onFrame' | 'onError'> = {}): Recorder {
  const events: DecodeEvent[] = [];
  const decoder = createDecoder({
    ...options,
    onFrame: (payload) => events.push({ kind: 'frame', payload }),
    onError: (error) => events.push({ kind: 'error', error }),
  });
  return {
    decoder,
    events,
    summary: () => events.map((e) => (e.kind === 'frame' ? text(e.payload) : `!${e.error.code}`)),
    frames: () => events.flatMap((e) => (e.kind === 'frame' ? [text(e.payload)] : [])),
    errors: () => events.flatMap((e) => (e.kind === 'error' ? [e.error] : [])),
  };
}

/** Pushes every chunk, ends the stream and returns the recorder. Also checks that no chunk was mutated. */
export function decodeAll(chunks: readonly Uint8Array[], options: Omit<DecoderOptions, 'onFrame' | 'onError'> = {}): Recorder {
  const copies = chunks.map((c) => c.slice());
  const recorder = record(options);
  for (const chunk of chunks) recorder.decoder.push(chunk);
  recorder.decoder.end();
  chunks.forEach((chunk, i) => {
    if (!bytesEqual(chunk, copies[i]!)) throw new Error(`decoder mutated chunk ${i}`);
  });
  return recorder;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
