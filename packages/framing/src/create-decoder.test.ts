import { describe, expect, it } from 'vitest';
import { createDecoder } from './create-decoder.js';
import { chunkings, decodeAll, record, utf8, text } from './decode.test-util.js';
import { FramingError } from './framing-error.js';

describe('auto-detection (the default)', () => {
  it('is undecided until it sees a significant byte, then picks NDJSON for JSON', () => {
    const r = record();
    r.decoder.push(utf8('  \r\n'));
    expect(r.decoder.framing).toBeUndefined();
    r.decoder.push(utf8('{"a":1}\n'));
    expect(r.decoder.framing).toBe('ndjson');
    expect(r.summary()).toEqual(['{"a":1}']);
  });

  it('picks Content-Length from the header name, in any case, under every chunking', () => {
    const stream = utf8('\r\ncontent-LENGTH: 7\r\n\r\n{"a":1}Content-Length: 2\r\n\r\n[]');
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks);
      expect(r.decoder.framing, name).toBe('content-length');
      expect(r.summary(), name).toEqual(['{"a":1}', '[]']);
    }
  });

  it('picks Content-Length from a leading Content-Type header', () => {
    const r = decodeAll([utf8('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}')]);
    expect([r.decoder.framing, ...r.summary()]).toEqual(['content-length', '{}']);
  });

  it('picks NDJSON under every chunking, dropping only the whitespace before the first line', () => {
    const stream = utf8(' \n\t{"a":1}\n  {"b":2}\n');
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks);
      expect([r.decoder.framing, ...r.summary()], name).toEqual(['ndjson', '{"a":1}', '  {"b":2}']);
    }
  });

  it('treats anything that is not a header as NDJSON, so a bad first line reaches the JSON layer', () => {
    for (const first of ['hello', 'Content-Lengthy: 1', 'Cont']) {
      const r = decodeAll([utf8(`${first}\n{"a":1}\n`)]);
      expect([r.decoder.framing, ...r.summary()], first).toEqual(['ndjson', first, '{"a":1}']);
    }
  });

  it('keeps the framing it detected for the rest of the stream', () => {
    const r = decodeAll([utf8('{"a":1}\nContent-Length: 2\r\n\r\n{}\n')]);
    expect(r.summary()).toEqual(['{"a":1}', 'Content-Length: 2', '{}']);
  });

  it('stores at most the 15 bytes detection needs and no leading whitespace', () => {
    const r = record();
    for (let i = 0; i < 1000; i++) r.decoder.push(new Uint8Array(1000).fill(0x20));
    expect(r.decoder.bufferedBytes).toBe(0);
    for (const byte of utf8('Content-Length')) r.decoder.push(new Uint8Array([byte]));
    expect(r.decoder.framing).toBeUndefined();
    expect(r.decoder.bufferedBytes).toBe(14);
    r.decoder.push(utf8(':'));
    expect(r.decoder.framing).toBe('content-length');
  });

  it('reports TRUNCATED_FRAME when the stream ends on an undecided header prefix', () => {
    const r = decodeAll([utf8('  Content-Le')]);
    expect(r.summary()).toEqual(['!TRUNCATED_FRAME']);
    expect(r.errors()[0]).toMatchObject({ framing: undefined });
    expect(r.decoder.framing).toBeUndefined();
    expect(r.decoder.bufferedBytes).toBe(0);
  });

  it('reports nothing for an empty or all-whitespace stream', () => {
    expect(decodeAll([]).summary()).toEqual([]);
    expect(decodeAll([utf8(' \r\n ')]).summary()).toEqual([]);
  });

  it('applies the limits to the detected framing', () => {
    expect(decodeAll([utf8('{"long":"xxxxxxxx"}\n{}\n')], { maxFrameBytes: 5 }).summary()).toEqual(['!FRAME_TOO_LARGE', '{}']);
    expect(decodeAll([utf8('Content-Length: 6\r\n\r\n123456')], { maxFrameBytes: 5 }).summary()).toEqual(['!FRAME_TOO_LARGE']);
    expect(decodeAll([utf8('Content-Length: 6\r\nX: yyyyyyy\r\n\r\n')], { maxHeaderBytes: 20 }).summary()).toEqual(['!HEADER_TOO_LARGE']);
  });
});

describe('createDecoder options', () => {
  const onFrame = () => {};

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 32])('refuses the limit %s with a RangeError', (limit) => {
    expect(() => createDecoder({ onFrame, maxFrameBytes: limit })).toThrow(RangeError);
    expect(() => createDecoder({ onFrame, maxHeaderBytes: limit })).toThrow(/maxHeaderBytes must be an integer between 1 and 4294967295/);
  });

  it('refuses an unknown framing or a missing callback with a TypeError', () => {
    expect(() => createDecoder({ onFrame, framing: 'xml' as never })).toThrow(TypeError);
    expect(() => createDecoder({} as never)).toThrow(/onFrame must be a function/);
    expect(() => createDecoder({ onFrame, onError: 42 as never })).toThrow(/onError must be a function/);
  });

  it('calls the callbacks as plain functions', () => {
    let self: unknown = 'unset';
    const decoder = createDecoder({
      onFrame(this: unknown) {
        self = this;
      },
    });
    decoder.push(utf8('{}\n'));
    expect(self).toBeUndefined();
  });
});

describe('decoder lifecycle', () => {
  it('throws DECODER_ENDED on push() after end(); end() is idempotent', () => {
    const r = record({ framing: 'ndjson' });
    r.decoder.push(utf8('{"a":1}'));
    r.decoder.end();
    r.decoder.end();
    expect(r.summary()).toEqual(['{"a":1}']);
    expect(() => r.decoder.push(utf8('{}\n'))).toThrow(expect.objectContaining({ code: 'DECODER_ENDED' }));
  });

  it('never keeps a reference to a chunk: a caller may reuse its buffer after push() returns', () => {
    for (const framing of ['ndjson', 'content-length', 'auto'] as const) {
      const r = record({ framing });
      const reused = new Uint8Array(64);
      const send = (s: string) => {
        const bytes = utf8(s);
        reused.set(bytes);
        r.decoder.push(reused.subarray(0, bytes.length));
        // Consume payloads before the buffer is reused, as the contract asks.
        const frames = r.frames();
        reused.fill(0x21);
        return frames;
      };
      const input =
        framing === 'ndjson'
          ? ['{"a":', '1}\n{"b"', ':2}\n']
          : ['Content-Length: 7\r', '\n\r\n{"a":', '1}Content-Length: 7\r\n\r\n{"b":2}'];
      let last: string[] = [];
      for (const piece of input) last = send(piece);
      expect(last, framing).toEqual(['{"a":1}', '{"b":2}']);
    }
  });
});

describe('throwing callbacks', () => {
  it('without onError, push() throws the FramingError and the next push() resumes after it', () => {
    const frames: string[] = [];
    const decoder = createDecoder({ framing: 'ndjson', maxFrameBytes: 8, onFrame: (p) => frames.push(text(p)) });
    let thrown: unknown;
    try {
      decoder.push(utf8('{"a":1}\n{"too":"long"}\n{"b":2}\n{"c":'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FramingError);
    expect((thrown as FramingError).code).toBe('FRAME_TOO_LARGE');
    expect(frames).toEqual(['{"a":1}']);
    expect(decoder.bufferedBytes).toBe(13);
    decoder.push(utf8('3}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('loses and repeats nothing when onFrame throws, whatever the framing and chunking', () => {
    const ndjson = utf8('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}');
    const cl = utf8(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}'].map((b) => `Content-Length: 7\r\n\r\n${b}`).join(''));
    for (const [framing, stream] of [
      ['ndjson', ndjson],
      ['content-length', cl],
      ['auto', cl],
    ] as const) {
      for (const [name, chunks] of chunkings(stream)) {
        const seen: string[] = [];
        const decoder = createDecoder({
          framing,
          onFrame: (p) => {
            const t = text(p);
            seen.push(t);
            if (t === '{"n":2}' || t === '{"n":4}') throw new Error(`boom ${t}`);
          },
        });
        let failures = 0;
        for (const chunk of [...chunks, 'end' as const]) {
          try {
            if (chunk === 'end') decoder.end();
            else decoder.push(chunk);
          } catch (error) {
            failures++;
            expect((error as Error).message).toMatch(/^boom/);
          }
        }
        // A throw during end() leaves nothing behind; end() again is a no-op.
        decoder.end();
        expect(seen, `${framing} ${name}`).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
        expect(failures, `${framing} ${name}`).toBe(2);
      }
    }
  });

  it('end() decodes what a throwing callback left behind', () => {
    const seen: string[] = [];
    const decoder = createDecoder({
      onFrame: (p) => {
        seen.push(text(p));
        if (seen.length === 1) throw new Error('first');
      },
    });
    expect(() => decoder.push(utf8('{"a":1}\n{"b":2}\n{"c":3}'))).toThrow('first');
    expect(decoder.bufferedBytes).toBeGreaterThan(0);
    decoder.end();
    expect(seen).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});
