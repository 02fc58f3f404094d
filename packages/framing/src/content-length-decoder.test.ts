import { describe, expect, it } from 'vitest';
import { chunkings, chunksOf, concatBytes, decodeAll, record, utf8 } from './decode.test-util.js';
import { encodeTextFrame } from './encode.js';

const cl = { framing: 'content-length' } as const;
const frame = (json: string): string => `Content-Length: ${utf8(json).length}\r\n\r\n${json}`;

describe('Content-Length decoder', () => {
  it('delivers bodies by byte count under every chunking, including bodies with CRLF and header-like text', () => {
    const bodies = ['{"id":1}', '{"verb":"comió","e":"😀"}', '{\r\n"a": 1\r\n}\r\n\r\n', 'Content-Length: 99\r\n\r\n', ''];
    const stream = utf8(bodies.map(frame).join(''));
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, cl);
      expect(r.summary(), name).toEqual(bodies);
      expect(r.decoder.bufferedBytes).toBe(0);
    }
  });

  it('ignores other headers, matches names in any case and accepts a bare LF line ending', () => {
    const stream = utf8(
      'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 7\r\n\r\n{"a":1}' +
        'CONTENT-LENGTH:7\r\nX-Other: y\r\n\r\n{"b":2}' +
        'Content-Length: 7\n\n{"c":3}',
    );
    for (const [name, chunks] of chunkings(stream))
      expect(decodeAll(chunks, cl).summary(), name).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('skips whitespace between frames (a writer that appends a newline after each body)', () => {
    const stream = utf8(`\r\n${frame('{"a":1}')}\n\r\n ${frame('{"b":2}')}\r\n`);
    for (const [name, chunks] of chunkings(stream)) expect(decodeAll(chunks, cl).summary(), name).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('accepts a duplicate Content-Length with the same value', () => {
    expect(decodeAll([utf8('Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}')], cl).summary()).toEqual(['{}']);
  });

  it('hands out a view of the chunk when a body is inside it, a fresh array of the exact size otherwise', () => {
    const chunk = utf8(`${frame('{"a":1}')}${frame('{"b":2}').slice(0, 25)}`);
    const r = record(cl);
    r.decoder.push(chunk);
    expect(r.decoder.bufferedBytes).toBe(4);
    r.decoder.push(utf8(':2}'));
    const payloads = r.events.map((e) => (e.kind === 'frame' ? e.payload : new Uint8Array()));
    expect(payloads[0]!.buffer).toBe(chunk.buffer);
    expect(payloads[1]!.buffer).not.toBe(chunk.buffer);
    expect(payloads[1]!.buffer.byteLength).toBe(7);
    expect(r.frames()).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('delivers a zero-length body as an empty payload', () => {
    const r = decodeAll([utf8('Content-Length: 0\r\n\r\n')], cl);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ kind: 'frame' });
    expect(r.frames()).toEqual(['']);
  });
});

describe('strict Content-Length parsing', () => {
  // Each case: a bad header block with a body, then a good frame the decoder must recover to.
  it.each([
    ['negative', 'Content-Length: -5\r\n\r\nhello'],
    ['plus sign', 'Content-Length: +5\r\n\r\nhello'],
    ['trailing letters', 'Content-Length: 5x\r\n\r\nhello'],
    ['empty value', 'Content-Length:\r\n\r\nhello'],
    ['space inside', 'Content-Length: 1 0\r\n\r\nhello'],
    ['huge', 'Content-Length: 99999999999999999999\r\n\r\nhello'],
    ['missing', 'Content-Type: application/json\r\n\r\nhello'],
    ['duplicate with another value', 'Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello'],
    ['no colon', 'Content-Length 5\r\n\r\nhello'],
    ['JSON where a header belongs', '{"jsonrpc":"2.0","id":1}\n'],
  ])('%s: reports INVALID_HEADER once, then resynchronises on the next Content-Length header', (_name, bad) => {
    const stream = utf8(`${frame('{"a":1}')}${bad}${frame('{"b":2}')}`);
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, cl);
      expect(r.summary(), name).toEqual(['{"a":1}', '!INVALID_HEADER', '{"b":2}']);
      expect(r.decoder.bufferedBytes).toBe(0);
    }
  });

  it('says what is wrong and shows the offending line', () => {
    const errors = (input: string) => decodeAll([utf8(input)], cl).errors();
    expect(errors('Content-Length: +5\r\n\r\n')[0]).toMatchObject({
      code: 'INVALID_HEADER',
      framing: 'content-length',
      header: 'Content-Length: +5',
    });
    expect(errors('Content-Length: +5\r\n\r\n')[0]!.message).toMatch(
      /decimal digits only.*"Content-Length: \+5".*skipping to the next Content-Length header/,
    );
    expect(errors('Content-Length: 1\r\nContent-Length: 2\r\n\r\n')[0]!.message).toMatch(/conflicting Content-Length headers \(1 and 2\)/);
    expect(errors('Content-Length: 5000000000\r\n\r\n')[0]!.message).toMatch(/out of range \(max 4294967295\)/);
    expect(errors('Content-Type: x\r\n\r\n')[0]!.message).toMatch(/has no Content-Length header/);
    expect(errors('bogus\r\n\r\n')[0]!.message).toMatch(/malformed header line.*"bogus"/);
  });

  it('recovers from a malformed line inside a block that still carries a Content-Length', () => {
    // Resynchronisation starts after the bad line, so the block's own Content-Length line is found.
    const stream = utf8('Bogus line\r\nContent-Length: 7\r\n\r\n{"a":1}' + frame('{"b":2}'));
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, cl).summary(), name).toEqual(['!INVALID_HEADER', '{"a":1}', '{"b":2}']);
    }
  });

  it('resynchronises on a lowercase header that follows the skipped body directly', () => {
    const stream = utf8('Content-Length: x\r\n\r\n{"skipped":true}content-length: 7\r\n\r\n{"a":1}');
    for (const [name, chunks] of chunkings(stream)) expect(decodeAll(chunks, cl).summary(), name).toEqual(['!INVALID_HEADER', '{"a":1}']);
  });
});

describe('Content-Length limits', () => {
  it('skips a body above maxFrameBytes by counting, reports its declared size, and decodes the next frame', () => {
    const big = `{"big":"${'x'.repeat(40)}"}`;
    const stream = utf8(frame('{"a":1}') + frame(big) + frame('{"b":2}'));
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, { ...cl, maxFrameBytes: 20 });
      expect(r.summary(), name).toEqual(['{"a":1}', '!FRAME_TOO_LARGE', '{"b":2}']);
      expect(r.errors()[0]).toMatchObject({ framing: 'content-length', limit: 20, size: big.length });
    }
  });

  it('accepts a body of exactly maxFrameBytes', () => {
    expect(decodeAll([utf8(frame('{"ab":12}'))], { ...cl, maxFrameBytes: 9 }).summary()).toEqual(['{"ab":12}']);
  });

  it('counts through a 100 MB body in 64 KiB chunks without storing it (maxSkipBytes above it)', () => {
    const limit = 1024 * 1024;
    const size = 100 * 1024 * 1024;
    const r = record({ ...cl, maxFrameBytes: limit, maxSkipBytes: size });
    r.decoder.push(utf8(`${frame('{"a":1}')}Content-Length: ${size}\r\n\r\n`));
    expect(r.summary()).toEqual(['{"a":1}', '!FRAME_TOO_LARGE']);
    const filler = new Uint8Array(64 * 1024).fill(0x7b);
    let maxBuffered = 0;
    for (let sent = 0; sent < size; sent += filler.length) {
      r.decoder.push(filler);
      maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
    }
    r.decoder.push(utf8(frame('{"b":2}')));
    r.decoder.end();
    expect(maxBuffered).toBe(0);
    expect(r.summary()).toEqual(['{"a":1}', '!FRAME_TOO_LARGE', '{"b":2}']);
  });

  it('keeps bufferedBytes at most the limit while a large valid body arrives in pieces', () => {
    const limit = 256 * 1024;
    const body = `"${'z'.repeat(limit - 2)}"`;
    const r = record({ ...cl, maxFrameBytes: limit });
    let maxBuffered = 0;
    for (const chunk of chunksOf(encodeTextFrame(body, 'content-length'), 1000)) {
      r.decoder.push(chunk);
      maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
    }
    expect(maxBuffered).toBeLessThanOrEqual(limit);
    expect(r.frames()).toEqual([body]);
  });

  it('refuses a header block above maxHeaderBytes, storing at most the limit, then resynchronises', () => {
    const hugeHeader = `Content-Length: 7\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n{"x":0}`;
    const stream = utf8(frame('{"a":1}') + hugeHeader + frame('{"b":2}'));
    for (const [name, chunks] of chunkings(stream)) {
      const r = record({ ...cl, maxHeaderBytes: 64 });
      let maxBuffered = 0;
      for (const chunk of chunks) {
        r.decoder.push(chunk);
        maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
      }
      r.decoder.end();
      expect(r.summary(), name).toEqual(['{"a":1}', '!HEADER_TOO_LARGE', '{"b":2}']);
      expect(maxBuffered, name).toBeLessThanOrEqual(64);
      expect(r.errors()[0]).toMatchObject({ code: 'HEADER_TOO_LARGE', limit: 64, framing: 'content-length' });
    }
  });

  it('refuses an endless header line without buffering it', () => {
    const r = record({ ...cl, maxHeaderBytes: 100 });
    r.decoder.push(utf8('Content-Type: '));
    for (let i = 0; i < 1000; i++) r.decoder.push(new Uint8Array(1000).fill(0x61));
    expect(r.summary()).toEqual(['!HEADER_TOO_LARGE']);
    expect(r.decoder.bufferedBytes).toBe(0);
    r.decoder.push(utf8(`\r\n\r\n${frame('{"b":2}')}`));
    expect(r.summary()).toEqual(['!HEADER_TOO_LARGE', '{"b":2}']);
  });

  it('counts the whole header block, not one line, against maxHeaderBytes', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const stream = utf8(`Content-Length: 2\r\n${lines}\r\n{}`);
    expect(decodeAll([stream], { ...cl, maxHeaderBytes: 80 }).summary()).toEqual(['!HEADER_TOO_LARGE']);
    expect(decodeAll([stream], { ...cl, maxHeaderBytes: 200 }).summary()).toEqual(['{}']);
  });

  it('resynchronises on a Content-Length line that comes after the point where the limit was crossed', () => {
    // Documented behaviour: the scan starts where the block went over the limit, so a Content-Length
    // later in the same block is found and its body delivered after the error.
    const lines = Array.from({ length: 10 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const r = decodeAll([utf8(`${lines}Content-Length: 2\r\n\r\n{}`)], { ...cl, maxHeaderBytes: 80 });
    expect(r.summary()).toEqual(['!HEADER_TOO_LARGE', '{}']);
  });
});

describe('Content-Length end()', () => {
  it('reports TRUNCATED_FRAME for a partial body, with the bytes received', () => {
    const r = decodeAll([utf8(`${frame('{"a":1}')}Content-Length: 10\r\n\r\n{"b"`)], cl);
    expect(r.summary()).toEqual(['{"a":1}', '!TRUNCATED_FRAME']);
    expect(r.errors()[0]).toMatchObject({ framing: 'content-length', size: 4 });
    expect(r.errors()[0]!.message).toMatch(/4 of 10 body bytes received/);
    expect(r.decoder.bufferedBytes).toBe(0);
  });

  it('reports TRUNCATED_FRAME for a partial header block', () => {
    for (const tail of ['C', 'Content-Length: 5', 'Content-Length: 5\r\n', 'Content-Length: 5\r\n\r']) {
      const r = decodeAll([utf8(frame('{"a":1}') + tail)], cl);
      expect(r.summary(), tail).toEqual(['{"a":1}', '!TRUNCATED_FRAME']);
    }
  });

  it('reports nothing for trailing whitespace, or for a frame already reported as too large or malformed', () => {
    expect(decodeAll([utf8(`${frame('{}')}\r\n`)], cl).summary()).toEqual(['{}']);
    expect(decodeAll([utf8('Content-Length: 100\r\n\r\nabc')], { ...cl, maxFrameBytes: 10 }).summary()).toEqual(['!FRAME_TOO_LARGE']);
    expect(decodeAll([utf8('Content-Length: x\r\n\r\nabc')], cl).summary()).toEqual(['!INVALID_HEADER']);
  });
});

describe('Content-Length ordering', () => {
  it('interleaves errors with frames in stream order under every chunking', () => {
    const stream = concatBytes(
      utf8(frame('{"n":1}')),
      utf8('Content-Length: 100\r\n\r\n' + 'x'.repeat(100)),
      utf8(frame('{"n":2}')),
      utf8('Content-Length: -1\r\n\r\n{}'),
      utf8(frame('{"n":3}')),
      utf8('Content-Length: 9'),
    );
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, { ...cl, maxFrameBytes: 50 }).summary(), name).toEqual([
        '{"n":1}',
        '!FRAME_TOO_LARGE',
        '{"n":2}',
        '!INVALID_HEADER',
        '{"n":3}',
        '!TRUNCATED_FRAME',
      ]);
    }
  });
});
