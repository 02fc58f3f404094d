// The incremental SSE parser: generated streams (events, comments, ids, retry, unknown fields, every line ending,
// a BOM) cut into arbitrary chunks parse to exactly the events a reference reading of the same stream gives.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isLocalError } from '@wiremcp/protocol';
import { SseParser, type ParsedSseEvent } from '../../src/sse/parse.js';

type Line = { kind: 'data' | 'event' | 'id' | 'retry' | 'comment' | 'other'; value: string; space: boolean } | { kind: 'blank' };

/** Text with no line break (and no NUL unless allowed). */
const text = (nul = false): fc.Arbitrary<string> =>
  fc
    .string({
      unit: fc.oneof(
        fc.constantFrom('a', 'b', ' ', ':', '=', 'é', '世', '😀', '\t', '\u{feff}'),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
      ),
      maxLength: 12,
    })
    .map((s) => s.replace(nul ? /[\r\n]/g : /[\r\n\0]/g, ''));

const fieldLine: fc.Arbitrary<Line> = fc.oneof(
  fc.record({ kind: fc.constant('data' as const), value: text(), space: fc.boolean() }),
  fc.record({ kind: fc.constant('event' as const), value: text().map((s) => s.replace(/:/g, '')), space: fc.boolean() }),
  fc.record({ kind: fc.constant('id' as const), value: text(true), space: fc.boolean() }),
  fc.record({ kind: fc.constant('retry' as const), value: fc.oneof(fc.nat({ max: 100_000 }).map(String), text()), space: fc.boolean() }),
  fc.record({ kind: fc.constant('comment' as const), value: text(), space: fc.boolean() }),
  fc.record({ kind: fc.constant('other' as const), value: text(), space: fc.boolean() }),
);
const lines = fc.array(fc.oneof({ weight: 3, arbitrary: fieldLine }, { weight: 1, arbitrary: fc.constant({ kind: 'blank' } as Line) }), {
  maxLength: 40,
});
const ending = fc.constantFrom('\n', '\r', '\r\n');

function render(line: Line): string {
  if (line.kind === 'blank') return '';
  if (line.kind === 'comment') return `:${line.value}`;
  const name = line.kind === 'other' ? 'foo' : line.kind;
  // "field: value" drops one leading space of the value; without the space only values not starting with one.
  const separator = line.space || line.value.startsWith(' ') ? ': ' : ':';
  return `${name}${separator}${line.value}`;
}

/** The events and final state a straightforward reading of the line list gives (the WHATWG rules). */
function reference(list: Line[]): { events: ParsedSseEvent[]; lastEventId: string; retry: number | undefined } {
  const events: ParsedSseEvent[] = [];
  let data: string[] = [];
  let type = '';
  let idBuffer = '';
  let hasId = false;
  let lastEventId = '';
  let retry: number | undefined;
  for (const line of list) {
    if (line.kind === 'blank') {
      lastEventId = idBuffer;
      if (data.length > 0) events.push({ type: type || 'message', data: data.join('\n'), lastEventId, ...(hasId ? { hasId } : {}) });
      data = [];
      type = '';
      hasId = false;
      continue;
    }
    if (line.kind === 'data') data.push(line.value);
    else if (line.kind === 'event') type = line.value;
    else if (line.kind === 'id' && !line.value.includes('\0')) {
      idBuffer = line.value;
      hasId = true;
    } else if (line.kind === 'retry' && /^\d+$/.test(line.value)) retry = Number(line.value);
  }
  return { events, lastEventId, retry };
}

function serialize(list: Line[], endings: string[], bom: boolean): Uint8Array {
  let out = bom ? '\u{feff}' : '';
  list.forEach((line, i) => {
    let end = endings[i % endings.length]!;
    // "…\r" followed by an empty line ended by "\n" would read as one CRLF: end that empty line with CRLF.
    if (line.kind === 'blank' && end === '\n' && out.endsWith('\r')) end = '\r\n';
    out += render(line) + end;
  });
  return new TextEncoder().encode(out);
}

function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of sorted) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

function parseAll(chunks: Uint8Array[], maxEventBytes?: number): { events: ParsedSseEvent[]; parser: SseParser; retries: number[] } {
  const events: ParsedSseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms), maxEventBytes });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, parser, retries };
}

describe('SseParser', () => {
  test('any stream, any line endings, any chunking: the reference events, last id and retry', () => {
    fc.assert(
      fc.property(
        lines,
        fc.array(ending, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (list, endings, bom, points) => {
          const expected = reference(list);
          const { events, parser } = parseAll(cut(serialize(list, endings, bom), points));
          expect(events).toEqual(expected.events);
          expect(parser.lastEventId).toBe(expected.lastEventId);
          expect(parser.retry).toBe(expected.retry);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('byte-by-byte feeding equals one-chunk feeding', () => {
    fc.assert(
      fc.property(lines, ending, (list, end) => {
        const bytes = serialize(list, [end], false);
        const whole = parseAll([bytes]).events;
        const single = parseAll([...bytes].map((b) => Uint8Array.of(b))).events;
        expect(single).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  test('multi-line data, ids that persist, priming events, comments and a final unterminated event', () => {
    const stream =
      ':keep-alive\r\nid: 7\r\nretry: 500\r\ndata: \r\n\r\ndata: {"a":\ndata: 1}\n\nevent: endpoint\ndata: /post?x=1\n\ndata: lost';
    const { events, parser, retries } = parseAll([new TextEncoder().encode(stream)]);
    expect(events).toEqual([
      { type: 'message', data: '', lastEventId: '7', hasId: true },
      { type: 'message', data: '{"a":\n1}', lastEventId: '7' },
      { type: 'endpoint', data: '/post?x=1', lastEventId: '7' },
    ]);
    expect(retries).toEqual([500]);
    expect(parser.lastEventId).toBe('7');
  });

  test('only the stream BOM is dropped; a BOM inside a value stays', () => {
    const { events } = parseAll([
      Uint8Array.of(0xef, 0xbb),
      new Uint8Array(0),
      Uint8Array.of(0xbf),
      new TextEncoder().encode('data: \u{feff}x\n\n'),
    ]);
    expect(events).toEqual([{ type: 'message', data: '\u{feff}x', lastEventId: '' }]);
  });

  test('a multi-byte character split across chunks decodes whole', () => {
    const bytes = new TextEncoder().encode('data: 世界😀\n\n');
    for (let i = 1; i < bytes.length; i++) {
      expect(parseAll([bytes.slice(0, i), bytes.slice(i)]).events).toEqual([{ type: 'message', data: '世界😀', lastEventId: '' }]);
    }
  });

  test('an id with NUL is ignored; a retry that is not all digits is ignored', () => {
    const { events, parser } = parseAll([new TextEncoder().encode('id: a\0b\nretry: 5x\ndata: x\n\n')]);
    expect(events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
    expect(parser.retry).toBeUndefined();
  });

  test('an event over the bound throws FRAME_TOO_LARGE, whether it comes in one chunk or a line never ends', () => {
    const big = new TextEncoder().encode(`data: ${'x'.repeat(100)}\n\n`);
    expect(() => parseAll([big], 64)).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE' }));
    const parser = new SseParser({ onEvent: () => undefined, maxEventBytes: 64 });
    let thrown: unknown;
    try {
      for (let i = 0; i < 100; i++) parser.push(new TextEncoder().encode('xxxxxxxx'));
    } catch (error) {
      thrown = error;
    }
    expect(isLocalError(thrown, 'FRAME_TOO_LARGE')).toBe(true);
    // Many data lines add up too.
    expect(() => parseAll([new TextEncoder().encode('data: 0123456789\n'.repeat(10))], 64)).toThrow(/exceeded 64 bytes/);
  });
});
