import { describe, expect, it } from 'vitest';
import { detectFraming } from './detect-framing.js';
import { utf8 } from './decode.test-util.js';

describe('detectFraming', () => {
  it.each([
    ['{"jsonrpc":"2.0"}', 'ndjson'],
    ['[{"jsonrpc":"2.0"}]', 'ndjson'],
    [' \t\r\n {"a":1}', 'ndjson'],
    ['Content-Length: 12\r\n\r\n', 'content-length'],
    ['content-length:', 'content-length'],
    ['CONTENT-LENGTH:5', 'content-length'],
    ['Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n', 'content-length'],
    ['\r\n\r\nContent-Length: 3', 'content-length'],
    // Not JSON and not a header: NDJSON, so the bad line surfaces as a JSON parse error one layer up.
    ['hello\n', 'ndjson'],
    ['Content-Lengthy: 3', 'ndjson'],
    ['Content-Length : 3', 'ndjson'],
    ['Content-Encoding: gzip', 'ndjson'],
    ['"a string"', 'ndjson'],
  ] as const)('%j → %s', (input, expected) => {
    expect(detectFraming(utf8(input))).toBe(expected);
  });

  it.each([[''], ['   '], ['\r\n\t '], ['C'], ['content'], ['Content-Len'], ['content-length'], ['  Content-T'], ['content-type']])(
    'returns undefined for %j: not enough bytes yet',
    (input) => {
      expect(detectFraming(utf8(input))).toBeUndefined();
    },
  );

  it('decides from the first significant bytes whatever follows', () => {
    const bytes = utf8('Content-Length: 5\r\n\r\n{...}');
    for (let end = 0; end <= bytes.length; end++) {
      const expected = end < 'Content-Length:'.length ? undefined : 'content-length';
      expect(detectFraming(bytes.subarray(0, end))).toBe(expected);
    }
  });
});
