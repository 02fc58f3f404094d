import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes, decodeAll, splitAt, utf8 } from './decode.test-util.js';
import { encodeFrame, encodeTextFrame } from './encode.js';

// Arbitrary bytes, biased towards the sequences a Content-Length parser could trip on.
const tricky = ['\r\n', '\r\n\r\n', '\n', '\r', 'Content-Length: 5\r\n\r\n', 'content-length:', '{"a":1}'].map(utf8);
const payload = fc
  .array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(...tricky)), { maxLength: 6 })
  .map((parts) => concatBytes(...parts));
const cuts = fc.array(fc.nat(), { maxLength: 30 });

describe('Content-Length properties', () => {
  it('encode → concatenate → split anywhere → decode gives the payloads back in order', () => {
    fc.assert(
      fc.property(fc.array(payload, { maxLength: 12 }), cuts, fc.constantFrom('content-length', 'auto'), (payloads, cutPoints, framing) => {
        const stream = concatBytes(...payloads.map((p) => encodeFrame(p, 'content-length')));
        const chunks = splitAt(
          stream,
          cutPoints.map((c) => c % (stream.length + 1)),
        );
        const r = decodeAll(chunks, { framing });
        // Auto-detection needs a first frame; an empty stream stays undecided and emits nothing.
        expect(r.events.length).toBe(payloads.length);
        r.events.forEach((event, i) => {
          expect(event.kind).toBe('frame');
          if (event.kind === 'frame') expect(bytesEqual(event.payload, payloads[i]!)).toBe(true);
        });
      }),
    );
  });

  it('text encoder counts UTF-8 bytes exactly for any JSON value', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }).map((v) => JSON.stringify(v)),
          { maxLength: 10 },
        ),
        cuts,
        (jsons, cutPoints) => {
          const stream = concatBytes(...jsons.map((json) => encodeTextFrame(json, 'content-length')));
          const chunks = splitAt(
            stream,
            cutPoints.map((c) => c % (stream.length + 1)),
          );
          expect(decodeAll(chunks, { framing: 'content-length' }).summary()).toEqual(jsons);
        },
      ),
    );
  });

  it('every proper prefix of a frame ends in exactly one TRUNCATED_FRAME', () => {
    fc.assert(
      fc.property(
        payload.filter((p) => p.length > 0),
        fc.nat(),
        (body, at) => {
          const frame = encodeFrame(body, 'content-length');
          const cut = 1 + (at % (frame.length - 1));
          const r = decodeAll([frame.slice(0, cut)], { framing: 'content-length' });
          expect(r.summary()).toEqual(['!TRUNCATED_FRAME']);
        },
      ),
    );
  });
});
