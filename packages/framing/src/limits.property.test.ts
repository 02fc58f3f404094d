import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes, record, splitAt, text, utf8 } from './decode.test-util.js';
import { createDecoder } from './create-decoder.js';
import { encodeFrame, encodeTextFrame } from './encode.js';
import type { Framing } from './framing.js';

const LIMIT = 64;
const HEADER_LIMIT = 32;
// Payload sizes on both sides of the limit, including exactly at it and one above.
const sizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 2 * LIMIT }), fc.constantFrom(LIMIT, LIMIT + 1)), { maxLength: 15 });
const cuts = fc.array(fc.nat(), { maxLength: 40 });

/** A non-blank payload of `size` bytes that identifies frame `i`, no newline inside. */
function payloadOf(i: number, size: number): string {
  const id = `${i}:`;
  return (id + 'x'.repeat(Math.max(0, size - id.length))).slice(0, size).padEnd(size, 'y');
}

describe('limit properties', () => {
  for (const framing of ['ndjson', 'content-length'] as const satisfies readonly Framing[]) {
    it(`${framing}: each frame above maxFrameBytes gives exactly one error in its place; all others arrive in order; memory stays bounded`, () => {
      fc.assert(
        fc.property(sizes, cuts, fc.boolean(), (frameSizes, cutPoints, crlf) => {
          const payloads = frameSizes.map((size, i) => payloadOf(i, size));
          const stream =
            framing === 'ndjson'
              ? utf8(payloads.map((p) => `${p}${crlf ? '\r\n' : '\n'}`).join(''))
              : concatBytes(...payloads.map((p) => encodeTextFrame(p, 'content-length')));
          const r = record({ framing, maxFrameBytes: LIMIT, maxHeaderBytes: HEADER_LIMIT });
          for (const chunk of splitAt(
            stream,
            cutPoints.map((c) => c % (stream.length + 1)),
          )) {
            r.decoder.push(chunk);
            expect(r.decoder.bufferedBytes).toBeLessThanOrEqual(Math.max(LIMIT, HEADER_LIMIT));
          }
          r.decoder.end();
          expect(r.summary()).toEqual(payloads.map((p) => (p.length > LIMIT ? '!FRAME_TOO_LARGE' : p)));
          expect(r.errors().every((e) => e.limit === LIMIT && e.framing === framing && e.size! > LIMIT)).toBe(true);
        }),
      );
    });
  }

  it('content-length: malformed blocks give one INVALID_HEADER per resynchronisation and the valid frames around them still arrive', () => {
    const bad = fc.constantFrom(
      'Content-Length: -1\r\n\r\n',
      'Content-Length: 1x\r\n\r\nz',
      'X: 1\r\n\r\n{}',
      'Content-Length: 1\r\nContent-Length: 2\r\n\r\n',
    );
    const item = fc.oneof(fc.record({ bad }), fc.record({ good: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) }));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), cuts, (items, cutPoints) => {
        const stream = concatBytes(...items.map((it) => ('bad' in it ? utf8(it.bad) : encodeFrame(utf8(it.good), 'content-length'))));
        const chunks = splitAt(
          stream,
          cutPoints.map((c) => c % (stream.length + 1)),
        );
        const r = record({ framing: 'content-length' });
        for (const chunk of chunks) r.decoder.push(chunk);
        r.decoder.end();
        // While resynchronising, the decoder skips without reporting: a malformed block that carries no
        // "Content-Length:" text is indistinguishable from the skipped bytes and adds no second error.
        const expected: string[] = [];
        for (const it of items) {
          if (!('bad' in it)) expected.push(it.good);
          else if (expected.at(-1) !== '!INVALID_HEADER' || /content-length:/i.test(it.bad)) expected.push('!INVALID_HEADER');
        }
        expect(r.summary()).toEqual(expected);
      }),
    );
  });

  it('a throwing onFrame loses and repeats nothing, wherever it throws and however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ndjson', 'content-length', 'auto'),
        fc.array(
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          { minLength: 1, maxLength: 10 },
        ),
        fc.array(fc.boolean(), { maxLength: 10 }),
        cuts,
        (framing, jsons, throwAt, cutPoints) => {
          const wire: Framing = framing === 'ndjson' ? 'ndjson' : 'content-length';
          const stream = concatBytes(...jsons.map((json) => encodeFrame(utf8(json), wire)));
          const seen: string[] = [];
          const decoder = createDecoder({
            framing,
            onFrame: (p) => {
              seen.push(text(p));
              if (throwAt[seen.length - 1] === true) throw new Error('callback failure');
            },
          });
          const steps: Array<() => void> = splitAt(
            stream,
            cutPoints.map((c) => c % (stream.length + 1)),
          ).map((chunk) => () => decoder.push(chunk));
          steps.push(() => decoder.end());
          for (const step of steps) {
            try {
              step();
            } catch {
              // Expected: the next call resumes.
            }
          }
          // end() may itself have been interrupted; calling it until it returns must drain the rest.
          for (let i = 0; i <= jsons.length; i++) {
            try {
              decoder.end();
              break;
            } catch {
              // Keep draining.
            }
          }
          expect(seen).toEqual(jsons);
        },
      ),
    );
  });
});
