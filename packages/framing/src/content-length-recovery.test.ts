// How a Content-Length decoder finds its way back: the bound on what it counts through after refusing an
// oversized frame, and a header glued to garbage.
import { describe, expect, it } from 'vitest';
import { createDecoder } from './create-decoder.js';
import { chunkings, decodeAll, record, utf8 } from './decode.test-util.js';

const cl = { framing: 'content-length' } as const;
const frame = (json: string): string => `Content-Length: ${utf8(json).length}\r\n\r\n${json}`;

describe('maxSkipBytes', () => {
  it('counts through an oversized body up to maxSkipBytes, whatever the body holds', () => {
    // The skipped body contains header-like text: counting, not scanning, is what finds the next frame.
    const body = `{"text":"Content-Length: 2\\r\\n\\r\\n{}","pad":"${'x'.repeat(30)}"}`;
    const stream = utf8(frame('{"a":1}') + frame(body) + frame('{"b":2}'));
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, { ...cl, maxFrameBytes: 20, maxSkipBytes: body.length });
      expect(r.summary(), name).toEqual(['{"a":1}', '!FRAME_TOO_LARGE', '{"b":2}']);
      expect(r.errors()[0]!.message).toMatch(/its body is skipped$/);
    }
  });

  it('does not wait for a body declared above maxSkipBytes: the next frame right after the header is decoded', () => {
    const stream = utf8(frame('{"a":1}') + 'Content-Length: 4000000000\r\n\r\n' + frame('{"b":2}') + frame('{"c":3}'));
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, cl);
      expect(r.summary(), name).toEqual(['{"a":1}', '!FRAME_TOO_LARGE', '{"b":2}', '{"c":3}']);
      expect(r.errors()[0]).toMatchObject({ framing: 'content-length', limit: 16 * 1024 * 1024, size: 4_000_000_000 });
      expect(r.errors()[0]!.message).toMatch(
        /too large to count through \(maxSkipBytes 67108864\); skipping to the next Content-Length header$/,
      );
    }
  });

  it('an honest body above maxSkipBytes is scanned, not stored, and the frame after it is decoded', () => {
    const size = 8 * 1024 * 1024;
    const r = record({ ...cl, maxFrameBytes: 1024, maxSkipBytes: 4096 });
    r.decoder.push(utf8(`Content-Length: ${size}\r\n\r\n`));
    // A JSON body, with header-like text inside its strings.
    const piece = utf8(`{"s":"content-length: 12 Content-Length:7","n":[1,2,3]}`);
    let maxBuffered = 0;
    for (let sent = 0; sent < size; sent += piece.length) {
      r.decoder.push(piece);
      maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
    }
    r.decoder.push(utf8(frame('{"next":true}')));
    r.decoder.end();
    // Header-like text inside the body is tried and refused as a header without a second report; the real
    // header glued to the end of the body starts the next frame.
    expect(r.summary()).toEqual(['!FRAME_TOO_LARGE', '{"next":true}']);
    // At most a header block's worth (maxHeaderBytes, 8 KiB by default) is held while scanning.
    expect(maxBuffered).toBeLessThanOrEqual(8 * 1024);
  });

  it('defaults to 4 × maxFrameBytes', () => {
    const under = decodeAll([utf8(`Content-Length: 40\r\n\r\n${'x'.repeat(40)}${frame('{}')}`)], { ...cl, maxFrameBytes: 10 });
    expect(under.summary()).toEqual(['!FRAME_TOO_LARGE', '{}']);
    expect(under.errors()[0]!.message).toMatch(/its body is skipped$/);
    const over = decodeAll([utf8(`Content-Length: 41\r\n\r\n${frame('{}')}`)], { ...cl, maxFrameBytes: 10 });
    expect(over.summary()).toEqual(['!FRAME_TOO_LARGE', '{}']);
    expect(over.errors()[0]!.message).toMatch(/maxSkipBytes 40/);
  });

  it('0 never counts through; nothing is reported again at end()', () => {
    const r = decodeAll([utf8(`Content-Length: 11\r\n\r\n${'x'.repeat(11)}`)], { ...cl, maxFrameBytes: 10, maxSkipBytes: 0 });
    expect(r.summary()).toEqual(['!FRAME_TOO_LARGE']);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 32])('refuses maxSkipBytes %s with a RangeError', (value) => {
    expect(() => createDecoder({ onFrame: () => {}, maxSkipBytes: value })).toThrow(
      /maxSkipBytes must be an integer between 0 and 4294967295/,
    );
  });
});

describe('a header glued to garbage', () => {
  it('a Content-Length header at the end of a malformed line starts the next block', () => {
    // The first frame declares 3 bytes but carries 7: the rest runs into the next header without a line break.
    const stream = utf8('Content-Length: 3\r\n\r\n{"a":1}' + frame('{"b":2}') + frame('{"c":3}'));
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, cl);
      expect(r.summary(), name).toEqual(['{"a', '!INVALID_HEADER', '{"b":2}', '{"c":3}']);
      expect(r.errors()[0]).toMatchObject({ header: '":1}' });
      expect(r.errors()[0]!.message).toMatch(/a new block starts after it$/);
    }
  });

  it('without a well-formed header at its end the block is malformed and the decoder resynchronises', () => {
    const r = decodeAll([utf8('Content-Length: 3\r\n\r\n{"a":1}Content-Length: x\r\n\r\nzz' + frame('{"b":2}'))], cl);
    expect(r.summary()).toEqual(['{"a', '!INVALID_HEADER', '{"b":2}']);
    expect(r.errors()[0]!.message).toMatch(/skipping to the next Content-Length header$/);
  });
});
