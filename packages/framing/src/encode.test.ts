import { describe, expect, it } from 'vitest';
import { encodeFrame, encodeTextFrame } from './encode.js';
import { FramingError } from './framing-error.js';
import { text, utf8 } from './decode.test-util.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FramingError);
    return (error as FramingError).code;
  }
  return undefined;
}

describe('encodeFrame', () => {
  it('appends a newline for NDJSON', () => {
    const payload = utf8('{"id":1}');
    const frame = encodeFrame(payload, 'ndjson');
    expect(text(frame)).toBe('{"id":1}\n');
    expect(frame.buffer).not.toBe(payload.buffer);
  });

  it('prefixes a Content-Length header that counts bytes, not characters', () => {
    const payload = utf8('{"text":"comió 😀"}');
    expect(payload.length).toBe(22); // 18 characters, 19 UTF-16 units
    expect(text(encodeFrame(payload, 'content-length'))).toBe('Content-Length: 22\r\n\r\n{"text":"comió 😀"}');
  });

  it('frames an empty payload and arbitrary bytes with Content-Length', () => {
    expect(text(encodeFrame(new Uint8Array(0), 'content-length'))).toBe('Content-Length: 0\r\n\r\n');
    const bytes = new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a, 0xff, 0x00]);
    const frame = encodeFrame(bytes, 'content-length');
    expect(Array.from(frame.subarray(frame.length - 6))).toEqual(Array.from(bytes));
    expect(text(frame.subarray(0, frame.length - 6))).toBe('Content-Length: 6\r\n\r\n');
  });

  it('refuses NDJSON payloads that would not decode back to themselves', () => {
    expect(codeOf(() => encodeFrame(utf8('{"a":\n1}'), 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeFrame(utf8('{"a":1}\r'), 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeFrame(utf8(''), 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeFrame(utf8(' \t '), 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(() => encodeFrame(utf8('{"a":\n1}'), 'ndjson')).toThrow(/raw newline at byte 5/);
    // A CR inside the payload is fine: only a trailing one is stripped by decoders.
    expect(text(encodeFrame(utf8('{"a":\r1}'), 'ndjson'))).toBe('{"a":\r1}\n');
  });
});

describe('encodeTextFrame', () => {
  it('returns a string for NDJSON', () => {
    const frame: string = encodeTextFrame('{"jsonrpc":"2.0","id":1}', 'ndjson');
    expect(frame).toBe('{"jsonrpc":"2.0","id":1}\n');
  });

  it('returns bytes with the exact UTF-8 byte count for Content-Length', () => {
    for (const json of ['{}', '{"a":"ascii only"}', '{"verb":"comió"}', '{"e":"😀😀"}', '"\u2028"', `"${'x'.repeat(100_000)}é"`]) {
      const frame: Uint8Array = encodeTextFrame(json, 'content-length');
      const body = utf8(json);
      expect(text(frame)).toBe(`Content-Length: ${body.length}\r\n\r\n${json}`);
      expect(frame.length).toBe(`Content-Length: ${body.length}\r\n\r\n`.length + body.length);
    }
  });

  it('matches encodeFrame byte for byte', () => {
    const json = '{"id":7,"result":{"text":"ate → comió"}}';
    expect(Array.from(encodeTextFrame(json, 'content-length'))).toEqual(Array.from(encodeFrame(utf8(json), 'content-length')));
  });

  it('refuses NDJSON text with a raw newline, a trailing CR, or nothing but whitespace', () => {
    expect(codeOf(() => encodeTextFrame('{"a":\n1}', 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeTextFrame('{}\r', 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeTextFrame('', 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => encodeTextFrame('  ', 'ndjson'))).toBe('INVALID_PAYLOAD');
    expect(() => encodeTextFrame('{"a":\n1}', 'ndjson')).toThrow(/raw newline at index 5/);
    // Content-Length carries newlines fine.
    expect(text(encodeTextFrame('{\n}', 'content-length'))).toBe('Content-Length: 3\r\n\r\n{\n}');
  });
});
