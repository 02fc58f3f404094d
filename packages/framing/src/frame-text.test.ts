import { describe, expect, it } from 'vitest';
import { createDecoder } from './create-decoder.js';
import { frameJson, frameText, utf8ByteLength } from './frame-text.js';
import { FramingError } from './framing-error.js';

const encoder = new TextEncoder();

describe('frameText', () => {
  it('NDJSON: the text and a newline', () => {
    expect(frameText('{"id":1}', 'ndjson')).toBe('{"id":1}\n');
  });

  it('NDJSON: refuses what would not come back unchanged', () => {
    for (const bad of ['{"a":\n1}', '{"a":1}\r', '', ' \t']) {
      expect(() => frameText(bad, 'ndjson')).toThrow(FramingError);
      expect(() => frameText(bad, 'ndjson')).toThrow(expect.objectContaining({ code: 'INVALID_PAYLOAD' }));
    }
  });

  it('Content-Length: the header counts UTF-8 bytes, and the frame decodes back to the text', () => {
    const json = '{"text":"comió 😀 日本"}';
    const framed = frameText(json, 'content-length');
    expect(framed).toBe(`Content-Length: ${encoder.encode(json).length}\r\n\r\n${json}`);
    const frames: string[] = [];
    const decoder = createDecoder({ framing: 'content-length', onFrame: (payload) => frames.push(new TextDecoder().decode(payload)) });
    decoder.push(encoder.encode(framed + framed));
    decoder.end();
    expect(frames).toEqual([json, json]);
  });
});

describe('frameJson', () => {
  it('serialises and frames in one step, like frameText of JSON.stringify', () => {
    const value = { text: 'comió 😀\nline two', n: [1, 2] };
    for (const framing of ['ndjson', 'content-length'] as const) {
      expect(frameJson(value, framing)).toBe(frameText(JSON.stringify(value), framing));
    }
  });

  it('returns undefined for what JSON.stringify cannot express, and throws what it throws', () => {
    expect(frameJson(undefined, 'ndjson')).toBeUndefined();
    expect(frameJson(() => 1, 'content-length')).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => frameJson(cyclic, 'ndjson')).toThrow(TypeError);
    expect(() => frameJson({ big: 1n }, 'ndjson')).toThrow(TypeError);
  });
});

describe('utf8ByteLength', () => {
  it('agrees with TextEncoder for every kind of character, lone surrogates included', () => {
    for (const text of ['', 'a', 'ñ', '€', '😀', '\uD800', 'x\uDC00y', '\uD83D\uDE00\uD83D', 'comió 日本 😀']) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
    }
  });

  it('agrees with TextEncoder for long texts, with pairs and multibyte characters across every window boundary', () => {
    for (const unit of ['😀', 'é', 'x€', 'ab😀c']) {
      const text = unit.repeat(Math.ceil(40_000 / unit.length));
      expect(utf8ByteLength(text), unit).toBe(encoder.encode(text).length);
      expect(utf8ByteLength(`z${text}`), `z${unit}`).toBe(encoder.encode(`z${text}`).length);
    }
  });
});
