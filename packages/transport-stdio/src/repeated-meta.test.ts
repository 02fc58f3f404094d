import fc from 'fast-check';
import { LocalError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { MessageReader } from './message-reader.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
};
const META_TEXT = JSON.stringify(META);

function request(id: number, args: unknown, meta: string = META_TEXT): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${JSON.stringify(args)},"_meta":${meta}}}`;
}

/** Reads `lines` as one chunk (NDJSON); returns what was delivered and the errors. */
function read(lines: readonly string[]): { messages: unknown[]; errors: Error[] } {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const reader = new MessageReader({ framing: 'ndjson' }, { deliver: (m) => messages.push(m), fail: (e) => errors.push(e) });
  reader.push(Buffer.from(lines.map((line) => line + '\n').join('')));
  return { messages, errors };
}

/** What parsing each line on its own gives (a `PARSE_ERROR` for invalid JSON). */
function parsedOneByOne(lines: readonly string[]): unknown[] {
  return lines.map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return 'PARSE_ERROR';
    }
  });
}

function delivered(lines: readonly string[]): unknown[] {
  const { messages, errors } = read(lines);
  const out: unknown[] = [];
  let m = 0;
  let e = 0;
  // Messages and errors come in frame order; a frame is one or the other.
  for (const expected of parsedOneByOne(lines)) {
    if (expected === 'PARSE_ERROR') out.push((errors[e++] as LocalError).code);
    else out.push(messages[m++]);
  }
  expect(m).toBe(messages.length);
  expect(e).toBe(errors.length);
  return out;
}

describe('a repeated trailing params._meta', () => {
  test('is parsed once: later requests share one frozen object, equal to what parsing them gives', () => {
    const lines = [0, 1, 2, 3].map((i) => request(i, { text: `t${i}` }));
    lines.push(request(4, { file_name: 'a_b' }));
    const { messages, errors } = read(lines);
    expect(errors).toEqual([]);
    expect(messages).toEqual(parsedOneByOne(lines));
    const metas = messages.map((m) => (m as { params: { _meta: unknown } }).params._meta);
    expect(metas[2]).toBe(metas[1]);
    expect(metas[3]).toBe(metas[1]);
    expect(metas[4]).toBe(metas[1]);
    expect(Object.isFrozen(metas[1])).toBe(true);
    expect(Object.isFrozen((metas[1] as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'])).toBe(true);
  });

  test('a request whose envelope changes, or that has none, is parsed in full', () => {
    const other = JSON.stringify({ ...META, 'io.modelcontextprotocol/logLevel': 'debug' });
    const lines = [request(0, {}), request(1, {}), request(2, {}, other), request(3, {}), '{"jsonrpc":"2.0","id":4,"method":"ping"}'];
    expect(delivered(lines)).toEqual(parsedOneByOne(lines));
  });

  test('frames shaped to look alike give what JSON.parse gives', () => {
    const tail = `"_meta":${META_TEXT}}}`;
    const lines = [
      request(0, {}),
      request(1, {}),
      // The envelope closes another top-level member; params has a _meta of 0 of its own.
      `{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":0},"x":{${tail}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"a":0},"x":{${tail}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"\\u005fmeta":0},"x":{${tail}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"_meta" :0},"x":{${tail}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"file_name":"a_b"},"x":{${tail}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"file_name":"a_b",${tail}`,
      // An escaped key that is also `_meta`, and a duplicate `_meta` before the last one.
      `{"jsonrpc":"2.0","id":4,"method":"m","params":{"\\u005fmeta":1,${tail}`,
      `{"jsonrpc":"2.0","id":5,"method":"m","params":{"_meta":1,${tail}`,
      // "params" given twice; escapes in a string; params that is only the envelope.
      `{"jsonrpc":"2.0","id":6,"params":{"b":1},"method":"m","params":{"c":2,${tail}`,
      `{"jsonrpc":"2.0","id":7,"method":"m","params":{"s":"a\\"b\\n",${tail}`,
      `{"jsonrpc":"2.0","id":8,"method":"m","params":{${tail}`,
      // Not JSON, with the same ending.
      `{"jsonrpc":"2.0","id":9,"method":"m","params":{"a":,${tail}`,
      `{"jsonrpc":"2.0","id":10,"method":"m","params":[${tail}`,
      request(11, {}),
    ];
    expect(delivered(lines)).toEqual(parsedOneByOne(lines));
  });

  test('a frame opening with a byte order mark is read without it', () => {
    const { messages, errors } = read([request(0, {}), request(1, {}), '\uFEFF' + request(2, {})]);
    expect(errors).toEqual([]);
    expect(messages[2]).toEqual(JSON.parse(request(2, {})));
  });

  test('invalid JSON with the known ending reports the error parsing the whole frame reports', () => {
    const bad = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":}, "_meta":${META_TEXT}}}`;
    const { errors } = read([request(0, {}), request(1, {}), bad]);
    let message = '';
    try {
      JSON.parse(bad);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(errors).toHaveLength(1);
    expect((errors[0] as LocalError).message).toBe(`Invalid JSON: ${message}`);
  });

  test('property: any mix of requests reads as JSON.parse reads each line', () => {
    const envelope = fc.constantFrom(META_TEXT, JSON.stringify({ ...META, k: '_meta' }), '{}', '{"a":"\\\\"}');
    // `0` often: the value the fast path parses in place of the envelope.
    const value = fc.oneof(
      fc.constant('0'),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    );
    const line = fc.oneof(
      fc.tuple(fc.nat(1000), value, envelope).map(([id, args, meta]) => request(id, JSON.parse(args), meta)),
      fc.tuple(value, envelope).map(([v, meta]) => `{"jsonrpc":"2.0","id":1,"method":"m","params":{"v":${v},"_meta":${meta}}}`),
      fc.tuple(value, envelope).map(([v, meta]) => `{"params":{"_meta":${v}},"x":{"_meta":${meta}}}`),
      fc.tuple(value, envelope).map(([v, meta]) => `{"params":{"\\u005fmeta":${v}},"x":{"_meta":${meta}}}`),
      fc.tuple(value, envelope).map(([v, meta]) => `{"params":{"_meta" :${v}},"x_y":{"_meta":${meta}}}`),
      fc.tuple(fc.string(), envelope).map(([s, meta]) => `{"params":{"s":${JSON.stringify(s)},"_meta":${meta}}}`),
      fc.tuple(fc.string({ maxLength: 8 }), envelope).map(([junk, meta]) => `{"params":{${junk.replace(/\n/g, ' ')},"_meta":${meta}}}`),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        const usable = lines.filter((l) => !/^[\s\r]*$/.test(l) && !l.endsWith('\r'));
        expect(delivered(usable)).toEqual(parsedOneByOne(usable));
      }),
      { numRuns: 300 },
    );
  });
});
