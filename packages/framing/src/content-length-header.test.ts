import { describe, expect, it } from 'vitest';
import {
  HEADER_BAD_LENGTH,
  HEADER_END,
  HEADER_IGNORED,
  HEADER_LENGTH_OUT_OF_RANGE,
  HEADER_MALFORMED,
  describeHeaderLine,
  lastHeaderName,
  parseHeaderLine,
} from './content-length-header.js';
import { utf8 } from './decode.test-util.js';

function parse(line: string): number {
  const bytes = utf8(`xx${line}yy`);
  // Parse from the middle of a buffer, as the decoder does with chunks.
  return parseHeaderLine(bytes, 2, bytes.length - 2);
}

describe('parseHeaderLine', () => {
  it.each([
    ['Content-Length: 12', 12],
    ['Content-Length:12', 12],
    ['content-length: 0', 0],
    ['CONTENT-LENGTH:\t7 \t\r', 7],
    ['Content-Length: 0007', 7],
    ['Content-Length: 4294967295', 4294967295],
    ['Content-Length: 00000000000000000000000042', 42],
  ])('%j → %i', (line, value) => {
    expect(parse(line)).toBe(value);
  });

  it.each([
    ['Content-Length: -5', HEADER_BAD_LENGTH],
    ['Content-Length: +5', HEADER_BAD_LENGTH],
    ['Content-Length: 5x', HEADER_BAD_LENGTH],
    ['Content-Length: 0x10', HEADER_BAD_LENGTH],
    ['Content-Length: 1 2', HEADER_BAD_LENGTH],
    ['Content-Length: 1.5', HEADER_BAD_LENGTH],
    ['Content-Length: 1e3', HEADER_BAD_LENGTH],
    ['Content-Length: ', HEADER_BAD_LENGTH],
    ['Content-Length:', HEADER_BAD_LENGTH],
    ['Content-Length: ５', HEADER_BAD_LENGTH],
    ['Content-Length: 4294967296', HEADER_LENGTH_OUT_OF_RANGE],
    ['Content-Length: 99999999999999999999999999999', HEADER_LENGTH_OUT_OF_RANGE],
    ['Content-Type: application/vscode-jsonrpc; charset=utf-8', HEADER_IGNORED],
    ['X-Custom: whatever: with colons', HEADER_IGNORED],
    ['Content-Lengths: 5', HEADER_IGNORED],
    ['', HEADER_END],
    ['\r', HEADER_END],
    ['no colon here', HEADER_MALFORMED],
    [': empty name', HEADER_MALFORMED],
    ['Content-Length : 5', HEADER_MALFORMED],
    ['{"jsonrpc":"2.0"}', HEADER_MALFORMED],
    ['Näme: x', HEADER_MALFORMED],
  ])('%j → code %i', (line, code) => {
    expect(parse(line)).toBe(code);
  });
});

describe('describeHeaderLine', () => {
  it('shows printable ASCII, escapes other bytes, drops the CR and cuts long lines', () => {
    const bytes = new Uint8Array([0x41, 0x00, 0xc3, 0xb1, 0x3a, 0x0d]);
    expect(describeHeaderLine(bytes, 0, bytes.length)).toBe('A\\x00\\xc3\\xb1:');
    const long = utf8('X'.repeat(300));
    expect(describeHeaderLine(long, 0, long.length)).toBe(`${'X'.repeat(200)}…`);
    const exact = utf8('Y'.repeat(200));
    expect(describeHeaderLine(exact, 0, exact.length)).toBe('Y'.repeat(200));
  });
});

describe('lastHeaderName', () => {
  it('finds the last Content-Length: in any case, within the bounds only', () => {
    const bytes = utf8('xx":1}Content-Length: 7 content-LENGTH:9yy');
    expect(lastHeaderName(bytes, 2, bytes.length - 2)).toBe(24);
    expect(lastHeaderName(bytes, 2, 23)).toBe(6);
    expect(lastHeaderName(bytes, 7, 23)).toBe(-1);
    expect(lastHeaderName(utf8('Content-Length 7'), 0, 16)).toBe(-1);
  });
});
