import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes, decodeAll, splitAt, utf8 } from './decode.test-util.js';
import { encodeFrame, encodeTextFrame } from './encode.js';

// Arbitrary JSON values, with any Unicode in strings and keys: JSON.stringify never emits a raw newline.
const messages = fc.array(
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }).map((v) => JSON.stringify(v)),
  { maxLength: 20 },
);
const cuts = fc.array(fc.nat(), { maxLength: 30 });

describe('NDJSON properties', () => {
  it('encode → concatenate → split anywhere → decode gives the payloads back in order', () => {
    fc.assert(
      fc.property(messages, cuts, fc.constantFrom('ndjson', 'auto'), (jsons, cutPoints, framing) => {
        const stream = utf8(jsons.map((json) => encodeTextFrame(json, 'ndjson')).join(''));
        const chunks = splitAt(
          stream,
          cutPoints.map((c) => c % (stream.length + 1)),
        );
        expect(decodeAll(chunks, { framing }).summary()).toEqual(jsons);
      }),
    );
  });

  it('tolerates CRLF line endings and blank lines between messages, wherever the stream is cut', () => {
    const separators = fc.constantFrom('\n', '\r\n');
    const blanks = fc.constantFrom('', '', '\n', '\r\n', ' \t\r\n', '   \n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), separators, blanks), { maxLength: 15 }),
        cuts,
        (items, cutPoints) => {
          const jsons = items.map(([value]) => JSON.stringify(value));
          const stream = utf8(items.map(([, eol, blank], i) => `${jsons[i]}${eol}${blank}`).join(''));
          const chunks = splitAt(
            stream,
            cutPoints.map((c) => c % (stream.length + 1)),
          );
          expect(decodeAll(chunks, { framing: 'ndjson' }).summary()).toEqual(jsons);
        },
      ),
    );
  });

  it('byte encoder and text encoder agree', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const json = JSON.stringify(value);
        expect(Array.from(encodeFrame(utf8(json), 'ndjson'))).toEqual(Array.from(utf8(encodeTextFrame(json, 'ndjson'))));
      }),
    );
  });

  it('delivers the last line without a newline at end()', () => {
    fc.assert(
      fc.property(
        messages.filter((m) => m.length > 0),
        cuts,
        (jsons, cutPoints) => {
          const stream = utf8(jsons.join('\n'));
          const chunks = splitAt(
            stream,
            cutPoints.map((c) => c % (stream.length + 1)),
          );
          expect(decodeAll(chunks, { framing: 'ndjson' }).summary()).toEqual(jsons);
        },
      ),
    );
  });

  it('refuses exactly the payloads that contain a raw newline', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 50 }).map((b) => concatBytes(utf8('{'), b)),
        (payload) => {
          const hasNewline = payload.includes(10);
          const endsWithCr = payload[payload.length - 1] === 13;
          if (hasNewline || endsWithCr) expect(() => encodeFrame(payload, 'ndjson')).toThrow(/INVALID_PAYLOAD|newline|\\r/);
          else
            expect(decodeAll([encodeFrame(payload, 'ndjson')], { framing: 'ndjson' }).events).toMatchObject([{ kind: 'frame', payload }]);
        },
      ),
    );
  });
});
