import { LocalError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { parsePayload } from './parse-payload.js';

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

describe('parsePayload', () => {
  test('parses strict UTF-8 JSON, from a view inside a larger buffer too', () => {
    const buffer = bytes('xx{"text":"comió 日本"}yy');
    expect(parsePayload(buffer.subarray(2, buffer.length - 2))).toEqual({ text: 'comió 日本' });
    expect(parsePayload(bytes('[1,2]'))).toEqual([1, 2]);
  });

  test('invalid UTF-8 is a PARSE_ERROR, not a U+FFFD replacement', () => {
    const payload = concat(bytes('{"text":"'), new Uint8Array([0xc3, 0x28]), bytes('"}'));
    expect(() => parsePayload(payload)).toThrow(LocalError);
    expect(() => parsePayload(payload)).toThrow(
      expect.objectContaining({ code: 'PARSE_ERROR', message: expect.stringContaining('UTF-8') }),
    );
    // An encoded surrogate (CESU-8) and an overlong encoding are invalid UTF-8 too.
    expect(() => parsePayload(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]))).toThrow(expect.objectContaining({ code: 'PARSE_ERROR' }));
    expect(() => parsePayload(new Uint8Array([0x22, 0xc0, 0xaf, 0x22]))).toThrow(expect.objectContaining({ code: 'PARSE_ERROR' }));
  });

  test('a real U+FFFD in the input is fine; a leading byte order mark is ignored', () => {
    expect(parsePayload(bytes('"\uFFFD"'))).toBe('\uFFFD');
    expect(parsePayload(concat(new Uint8Array([0xef, 0xbb, 0xbf]), bytes('{"id":1}')))).toEqual({ id: 1 });
  });

  test('invalid JSON is a PARSE_ERROR with the cause attached', () => {
    try {
      parsePayload(bytes('{bad'));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'PARSE_ERROR' });
      expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    }
  });

  test('the error message does not quote the payload', () => {
    const huge = `{"method":"${'x'.repeat(100_000)}"`;
    try {
      parsePayload(bytes(huge));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(1000);
    }
  });

  test('text a transport already decoded is only parsed, with the same errors for bad JSON', () => {
    expect(parsePayload('{"text":"comió"}')).toEqual({ text: 'comió' });
    expect(() => parsePayload('{bad')).toThrow(
      expect.objectContaining({ code: 'PARSE_ERROR', message: expect.stringContaining('Invalid JSON') }),
    );
  });
});
