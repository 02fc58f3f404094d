// `onFrameInChunk`: frames that lie within one pushed chunk arrive as (chunk, start, end) instead of a view. The
// stream of frames and errors must be the one `onFrame` alone gives, for any bytes and any chunking, in both
// framings and under auto-detection, with limits in play.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDecoder } from './create-decoder.js';
import { concatBytes, splitAt, utf8 } from './decode.test-util.js';
import type { DecoderOptions } from './decoder.js';
import { encodeFrame } from './encode.js';
import type { Framing } from './framing.js';

type Options = Omit<DecoderOptions, 'onFrame' | 'onError' | 'onFrameInChunk'>;

/** Frames (hex, copied at delivery) and error codes in order, and how many frames came as ranges. */
function run(chunks: readonly Uint8Array[], options: Options, ranges: boolean): { events: string[]; inChunk: number } {
  const events: string[] = [];
  let inChunk = 0;
  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
  let pushed: Uint8Array | undefined;
  const decoder = createDecoder({
    ...options,
    onFrame: (payload) => events.push(hex(payload)),
    onError: (error) => events.push(`!${error.code}`),
    ...(ranges
      ? {
          onFrameInChunk: (chunk: Uint8Array, start: number, end: number) => {
            inChunk++;
            expect(start).toBeGreaterThanOrEqual(0);
            expect(end).toBeLessThanOrEqual(chunk.length);
            expect(start).toBeLessThanOrEqual(end);
            expect(pushed).toBeDefined(); // only while push() runs
            events.push(hex(chunk.subarray(start, end)));
          },
        }
      : {}),
  });
  for (const chunk of chunks) {
    pushed = chunk;
    decoder.push(chunk);
  }
  pushed = undefined;
  decoder.end();
  return { events, inChunk };
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });
const line = fc.oneof(
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 2 }).map((value) => utf8(JSON.stringify(value))),
  fc.uint8Array({ maxLength: 30 }).map((bytes) => bytes.map((b) => (b === 0x0a ? 0x20 : b))),
  fc.constantFrom(utf8(''), utf8(' \t'), utf8('\r')),
);

describe('onFrameInChunk', () => {
  it('gives the frames and errors onFrame alone gives, NDJSON, any chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 12 }), cuts, fc.boolean(), (lines, at, auto) => {
        const stream = concatBytes(...lines.flatMap(([bytes, eol]) => [bytes, utf8(eol)]));
        const chunks = splitAt(
          stream,
          at.map((c) => c % (stream.length + 1)),
        );
        const options: Options = { framing: auto ? 'auto' : 'ndjson', maxFrameBytes: 40 };
        expect(run(chunks, options, true).events).toEqual(run(chunks, options, false).events);
      }),
    );
  });

  it('gives the frames and errors onFrame alone gives, Content-Length, any chunking', () => {
    const junk = fc.constantFrom(utf8(''), utf8('\r\n'), utf8('Content-Length: x\r\n\r\n'), utf8('Content-Length: 99\r\n\r\n{"a":1}'));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 50 }), junk), { maxLength: 8 }), cuts, (frames, at) => {
        const stream = concatBytes(...frames.flatMap(([body, extra]) => [encodeFrame(body, 'content-length'), extra]));
        const chunks = splitAt(
          stream,
          at.map((c) => c % (stream.length + 1)),
        );
        const options: Options = { framing: 'content-length' as Framing, maxFrameBytes: 40, maxSkipBytes: 60 };
        expect(run(chunks, options, true).events).toEqual(run(chunks, options, false).events);
      }),
    );
  });

  it('takes the frames that lie within a chunk; those assembled from several chunks still go to onFrame', () => {
    const stream = utf8('{"a":1}\n{"b":2}\n{"c":');
    const { events, inChunk } = run([stream, utf8('3}\n')], { framing: 'ndjson' }, true);
    expect(inChunk).toBe(2);
    expect(events.map((hex) => Buffer.from(hex, 'hex').toString())).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('must be a function', () => {
    expect(() => createDecoder({ onFrame: () => {}, onFrameInChunk: 1 as unknown as DecoderOptions['onFrameInChunk'] })).toThrow(TypeError);
  });
});
