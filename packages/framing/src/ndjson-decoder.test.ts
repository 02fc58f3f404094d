import { describe, expect, it } from 'vitest';
import { chunkings, chunksOf, concatBytes, decodeAll, record, splitAt, utf8 } from './decode.test-util.js';
import { DEFAULT_MAX_FRAME_BYTES } from './limits.js';

const ndjson = { framing: 'ndjson' } as const;

describe('NDJSON decoder', () => {
  it('delivers one payload per line, without the newline, in order', () => {
    const r = decodeAll([utf8('{"id":1}\n{"id":2}\n[{"id":3}]\n')], ndjson);
    expect(r.summary()).toEqual(['{"id":1}', '{"id":2}', '[{"id":3}]']);
    expect(r.decoder.framing).toBe('ndjson');
    expect(r.decoder.bufferedBytes).toBe(0);
  });

  it('gives the same payloads under every chunking', () => {
    const stream = utf8('{"a":1}\r\n\n  \n{"verb":"comió","e":"😀"}\n{"b":[1,2]}\r\n{"tail":true}');
    const expected = ['{"a":1}', '{"verb":"comió","e":"😀"}', '{"b":[1,2]}', '{"tail":true}'];
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, ndjson).summary(), name).toEqual(expected);
    }
  });

  it('hands out views of the pushed chunk for frames contained in it, copies for frames that span chunks', () => {
    const chunk = utf8('{"a":1}\n{"b":2}\n{"c":');
    const r = record(ndjson);
    r.decoder.push(chunk);
    r.decoder.push(utf8('3}\n'));
    const [a, b, c] = r.events.map((e) => (e.kind === 'frame' ? e.payload : new Uint8Array()));
    expect(a!.buffer).toBe(chunk.buffer);
    expect(a!.byteOffset).toBe(0);
    expect(b!.buffer).toBe(chunk.buffer);
    expect(b!.byteOffset).toBe(8);
    expect(c!.buffer).not.toBe(chunk.buffer);
    expect(r.frames()).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('keeps earlier payloads intact while later chunks arrive (no buffer reuse)', () => {
    const r = record(ndjson);
    for (let i = 0; i < 50; i++) {
      const line = utf8(`{"n":${i},"pad":"${'x'.repeat(i * 7)}"}\n`);
      for (const chunk of splitAt(line, [3, 10, line.length - 2])) r.decoder.push(chunk);
    }
    expect(r.frames()).toEqual(Array.from({ length: 50 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(i * 7)}"}`));
  });

  it('strips one trailing \\r (CRLF line endings) and keeps a \\r inside a line', () => {
    const stream = utf8('{"a":1}\r\n{"b":"x\ry"}\n{"c":3}\r\r\n');
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, ndjson).summary(), name).toEqual(['{"a":1}', '{"b":"x\ry"}', '{"c":3}\r']);
    }
  });

  it('skips empty and whitespace-only lines but keeps leading whitespace of a real line', () => {
    const stream = utf8('\n\r\n \t \n{"a":1}\n   \r\n  {"b":2}\n\n');
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, ndjson).summary(), name).toEqual(['{"a":1}', '  {"b":2}']);
    }
  });

  it('never splits a multi-byte UTF-8 character, wherever the chunks are cut', () => {
    const lines = ['{"english":"ate","spanish":"comió"}', '{"emoji":"😀🎉","cjk":"動詞"}'];
    const stream = utf8(lines.map((l) => `${l}\n`).join(''));
    // `text()` decodes strictly, so a payload cut inside a character would throw.
    for (const [name, chunks] of chunkings(stream)) expect(decodeAll(chunks, ndjson).frames(), name).toEqual(lines);
  });

  it('end() delivers a final line that has no newline, once', () => {
    const r = record(ndjson);
    r.decoder.push(utf8('{"a":1}\n{"last":'));
    expect(r.frames()).toEqual(['{"a":1}']);
    expect(r.decoder.bufferedBytes).toBe(8);
    r.decoder.push(utf8('true}\r'));
    r.decoder.end();
    r.decoder.end();
    expect(r.summary()).toEqual(['{"a":1}', '{"last":true}']);
    expect(r.decoder.bufferedBytes).toBe(0);
  });

  it('end() reports nothing for a trailing blank line or an empty stream', () => {
    expect(decodeAll([utf8('{"a":1}\n  \r')], ndjson).summary()).toEqual(['{"a":1}']);
    expect(decodeAll([], ndjson).summary()).toEqual([]);
    expect(decodeAll([new Uint8Array(0), new Uint8Array(0)], ndjson).summary()).toEqual([]);
  });

  it('delivers a payload that is not JSON unchanged (JSON parsing happens one layer up)', () => {
    expect(decodeAll([utf8('not json\n{"a":1}\n')], ndjson).summary()).toEqual(['not json', '{"a":1}']);
  });
});

describe('NDJSON limits', () => {
  it('refuses a line above maxFrameBytes contained in one chunk, then decodes the next line', () => {
    const r = decodeAll([utf8('{"a":"0123456789"}\n{"b":1}\n')], { ...ndjson, maxFrameBytes: 10 });
    expect(r.summary()).toEqual(['!FRAME_TOO_LARGE', '{"b":1}']);
    const [error] = r.errors();
    expect(error).toMatchObject({ code: 'FRAME_TOO_LARGE', framing: 'ndjson', limit: 10, size: 18 });
    expect(error!.message).toMatch(/18 bytes exceeds maxFrameBytes \(10\)/);
  });

  it('accepts a line of exactly maxFrameBytes, with or without CRLF, under every chunking', () => {
    const stream = utf8('{"a":"12"}\r\n{"b":"34"}\n{"c":"567"}\r\n{"d":1}');
    for (const [name, chunks] of chunkings(stream)) {
      const r = decodeAll(chunks, { ...ndjson, maxFrameBytes: 10 });
      expect(r.summary(), name).toEqual(['{"a":"12"}', '{"b":"34"}', '!FRAME_TOO_LARGE', '{"d":1}']);
      expect(r.decoder.bufferedBytes).toBe(0);
    }
  });

  it('reports an oversized line once, before its end arrives, and recovers at the next line', () => {
    const r = record({ ...ndjson, maxFrameBytes: 16 });
    r.decoder.push(utf8('{"ok":1}\n{"big":"'));
    r.decoder.push(utf8('aaaaaaaaaa'));
    expect(r.summary()).toEqual(['{"ok":1}', '!FRAME_TOO_LARGE']);
    expect(r.errors()[0]).toMatchObject({ size: 18, limit: 16 });
    expect(r.errors()[0]!.message).toMatch(/at least 18 bytes without a newline; discarding/);
    expect(r.decoder.bufferedBytes).toBe(0);
    r.decoder.push(utf8('aaaa\n{"next":2}\n'));
    r.decoder.end();
    expect(r.summary()).toEqual(['{"ok":1}', '!FRAME_TOO_LARGE', '{"next":2}']);
  });

  it('an endless line without a newline holds no memory beyond the cap and is reported once', () => {
    const limit = 1024 * 1024;
    const r = record({ ...ndjson, maxFrameBytes: limit });
    r.decoder.push(utf8('{"a":1}\n'));
    const filler = new Uint8Array(64 * 1024).fill(0x78);
    let maxBuffered = 0;
    for (let sent = 0; sent < 64 * 1024 * 1024; sent += filler.length) {
      r.decoder.push(filler);
      maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
    }
    expect(maxBuffered).toBeLessThanOrEqual(limit);
    expect(r.decoder.bufferedBytes).toBe(0);
    expect(r.summary()).toEqual(['{"a":1}', '!FRAME_TOO_LARGE']);
    // The newline that finally ends it brings the decoder back: the next line is delivered.
    r.decoder.push(utf8('xxxx\n{"b":2}\n'));
    r.decoder.end();
    expect(r.summary()).toEqual(['{"a":1}', '!FRAME_TOO_LARGE', '{"b":2}']);
  });

  it('does not report an oversized final line twice at end()', () => {
    const r = decodeAll([utf8('{"a":1}\n'), utf8('x'.repeat(100))], { ...ndjson, maxFrameBytes: 50 });
    expect(r.summary()).toEqual(['{"a":1}', '!FRAME_TOO_LARGE']);
  });

  it('streams a 100 MB line through in 64 KiB chunks with bufferedBytes never above the limit', () => {
    const limit = 1024 * 1024;
    const r = record({ ...ndjson, maxFrameBytes: limit });
    const filler = new Uint8Array(64 * 1024).fill(0x61);
    r.decoder.push(utf8('{"before":1}\n"'));
    let maxBuffered = 0;
    for (let sent = 0; sent < 100 * 1024 * 1024; sent += filler.length) {
      r.decoder.push(filler);
      maxBuffered = Math.max(maxBuffered, r.decoder.bufferedBytes);
    }
    r.decoder.push(utf8('"\n{"after":2}\n'));
    r.decoder.end();
    expect(maxBuffered).toBeLessThanOrEqual(limit);
    expect(r.summary()).toEqual(['{"before":1}', '!FRAME_TOO_LARGE', '{"after":2}']);
  });

  it('defaults to a 16 MiB limit', () => {
    const big = new Uint8Array(DEFAULT_MAX_FRAME_BYTES + 2).fill(0x61);
    big[big.length - 1] = 0x0a;
    const ok = new Uint8Array(DEFAULT_MAX_FRAME_BYTES + 1).fill(0x62);
    ok[ok.length - 1] = 0x0a;
    const r = decodeAll(chunksOf(concatBytes(big, ok), 1 << 20), ndjson);
    expect(r.events.map((e) => (e.kind === 'frame' ? e.payload.length : e.error.code))).toEqual([
      'FRAME_TOO_LARGE',
      DEFAULT_MAX_FRAME_BYTES,
    ]);
  });

  it('orders errors between the frames around them, whatever the chunking', () => {
    const stream = utf8('{"a":1}\n' + 'x'.repeat(30) + '\n{"b":2}\n' + 'y'.repeat(12) + '\r\n\n{"c":3}\n' + 'z'.repeat(40));
    for (const [name, chunks] of chunkings(stream)) {
      expect(decodeAll(chunks, { ...ndjson, maxFrameBytes: 11 }).summary(), name).toEqual([
        '{"a":1}',
        '!FRAME_TOO_LARGE',
        '{"b":2}',
        '!FRAME_TOO_LARGE',
        '{"c":3}',
        '!FRAME_TOO_LARGE',
      ]);
    }
  });
});
