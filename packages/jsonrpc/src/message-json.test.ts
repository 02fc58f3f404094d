import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { preserialize, stringifyMessage } from './message-json.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, roots: { listChanged: true } },
  'io.modelcontextprotocol/clientInfo': { name: 'client "quoted" \u2028 ünïcode', version: '1.0.0' },
};

describe('preserialize', () => {
  it('returns a deep-frozen copy, deaf to later changes of the original', () => {
    const original = structuredClone(META);
    const kept = preserialize(original);
    expect(kept).toEqual(META);
    expect(kept).not.toBe(original);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept['io.modelcontextprotocol/clientInfo'])).toBe(true);
    original['io.modelcontextprotocol/clientInfo'].version = '2.0.0';
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: kept } };
    expect(stringifyMessage(message)).toBe(JSON.stringify(message));
    expect(stringifyMessage(message)).toContain('"version":"1.0.0"');
  });
});

describe('stringifyMessage', () => {
  const meta = preserialize(META);

  it('gives the bytes of JSON.stringify for requests and notifications with a kept _meta', () => {
    const messages: unknown[] = [
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a\nb' }, _meta: meta } },
      { jsonrpc: '2.0', id: 'req-"1"', method: 'tools/list', params: { _meta: meta } },
      { jsonrpc: '2.0', method: 'notifications/x', params: { cursor: 'c', _meta: meta } },
      { jsonrpc: '2.0', id: 0, method: 'm\u2028"', params: { a: undefined, b: [1, { c: null }], _meta: meta } },
    ];
    for (const message of messages) expect(stringifyMessage(message)).toBe(JSON.stringify(message));
    // The kept text is spliced in: neither the message nor its _meta is serialised again.
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      for (const message of messages) stringifyMessage(message);
      const serialised = stringify.mock.calls.map((call) => call[0]);
      for (const message of messages) expect(serialised).not.toContain(message);
      expect(serialised).not.toContain(meta);
    } finally {
      stringify.mockRestore();
    }
  });

  it('falls back to JSON.stringify whenever the shape differs, with the same result', () => {
    const params = (extra: Record<string, unknown>): Record<string, unknown> => ({ name: 'echo', _meta: meta, ...extra });
    const proto = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.assign(proto, { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: meta } });
    const cases: unknown[] = [
      undefined,
      null,
      42,
      'text',
      [{ jsonrpc: '2.0', id: 1, method: 'a', params: { _meta: meta } }],
      { jsonrpc: '2.0', id: 1, result: { _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: 'm', params: params({ after: true }) },
      { id: 1, jsonrpc: '2.0', method: 'm', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: meta }, extra: 1 },
      { jsonrpc: '2.0', id: undefined, method: 'm', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 1.5, method: 'm', params: { _meta: meta } },
      { jsonrpc: '2.0', id: null, method: 'm', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: 7, params: { _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: 'm', params: { toJSON: () => ({ replaced: true }), _meta: meta } },
      { jsonrpc: '2.0', id: 1, method: 'm', params: JSON.parse(`{"__proto__": {"x": 1}, "_meta": ${JSON.stringify(META)}}`) as unknown },
      { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { ...meta } } },
      proto,
    ];
    for (const message of cases) expect(stringifyMessage(message)).toBe(JSON.stringify(message));
  });

  it('splices a kept result._meta into a response, with the bytes of JSON.stringify', () => {
    const serverMeta = preserialize({ 'io.modelcontextprotocol/serverInfo': { name: 's "q"', version: '1' } });
    const responses: unknown[] = [
      { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [{ type: 'text', text: 'a\nb' }], _meta: serverMeta } },
      { jsonrpc: '2.0', id: 'r-"1"', result: { _meta: serverMeta } },
      { jsonrpc: '2.0', id: 0, result: { a: undefined, structuredContent: { x: [1, null] }, _meta: serverMeta } },
    ];
    const stringify = vi.spyOn(JSON, 'stringify');
    let texts: (string | undefined)[];
    try {
      texts = responses.map((response) => stringifyMessage(response));
      const serialised = stringify.mock.calls.map((call) => call[0]);
      for (const response of responses) expect(serialised).not.toContain(response);
      expect(serialised).not.toContain(serverMeta);
    } finally {
      stringify.mockRestore();
    }
    expect(texts).toEqual(responses.map((response) => JSON.stringify(response)));
    const fallbacks: unknown[] = [
      { jsonrpc: '2.0', id: 1, result: { _meta: serverMeta, ttlMs: 0 } },
      { id: 1, jsonrpc: '2.0', result: { _meta: serverMeta } },
      { jsonrpc: '2.0', id: null, result: { _meta: serverMeta } },
      { jsonrpc: '2.0', id: 1.5, result: { _meta: serverMeta } },
      { jsonrpc: '2.0', id: 1, result: { _meta: serverMeta }, extra: true },
      { jsonrpc: '2.0', id: 1, result: { toJSON: () => ({ replaced: true }), _meta: serverMeta } },
      { jsonrpc: '2.0', id: 1, result: JSON.parse(`{"__proto__": {"x": 1}, "_meta": {}}`) as unknown },
      { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm', data: { _meta: serverMeta } } },
    ];
    (fallbacks[6] as { result: Record<string, unknown> }).result._meta = serverMeta;
    for (const message of fallbacks) expect(stringifyMessage(message)).toBe(JSON.stringify(message));
  });

  it('agrees with JSON.stringify on arbitrary results (property)', () => {
    const serverMeta = preserialize({ 'io.modelcontextprotocol/serverInfo': { name: 'n', version: '1' } });
    const key = fc.string().filter((k) => k !== '_meta' && k !== '__proto__' && k !== 'toJSON');
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue()), fc.oneof(fc.integer(), fc.string()), (rest, id) => {
        const message = { jsonrpc: '2.0', id, result: { ...rest, _meta: serverMeta } };
        expect(stringifyMessage(message)).toBe(JSON.stringify(message));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the __proto__ key of params that came from JSON.parse', () => {
    const params = JSON.parse('{"__proto__": {"x": 1}, "name": "n"}') as Record<string, unknown>;
    const message = { jsonrpc: '2.0', id: 1, method: 'm', params: { ...params, _meta: meta } };
    expect(stringifyMessage(message)).toBe(JSON.stringify(message));
    expect(stringifyMessage(message)).toContain('"__proto__"');
  });

  it('agrees with JSON.stringify on arbitrary params (property)', () => {
    const key = fc.string().filter((k) => k !== '_meta' && k !== '__proto__' && k !== 'toJSON');
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue()),
        fc.oneof(fc.integer(), fc.string()),
        fc.string(),
        fc.boolean(),
        (rest, id, method, isRequest) => {
          const params = { ...rest, _meta: meta };
          const message = isRequest ? { jsonrpc: '2.0', id, method, params } : { jsonrpc: '2.0', method, params };
          expect(stringifyMessage(message)).toBe(JSON.stringify(message));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees with JSON.stringify wherever _meta sits and whatever the strings hold (property)', () => {
    // Any UTF-16 (lone surrogates, quotes, backslashes, control characters) and long strings, in keys and values.
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.oneof(fc.string({ unit: codeUnit }), fc.string({ unit: 'grapheme' }), fc.string({ minLength: 250, maxLength: 300 }));
    const value = fc.oneof(
      text,
      fc.jsonValue(),
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }),
      fc.constant(() => 1),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            text.filter((k) => k !== '__proto__'),
            value,
          ),
          { maxLength: 6 },
        ),
        fc.nat({ max: 6 }),
        text,
        fc.oneof(fc.nat(), text),
        fc.boolean(),
        (entries, at, method, id, asResponse) => {
          const holder: Record<string, unknown> = {};
          entries.forEach(([key, each], index) => {
            if (index === at) holder._meta = meta;
            holder[key] = each;
          });
          holder._meta ??= meta;
          const message = asResponse ? { jsonrpc: '2.0', id, result: holder } : { jsonrpc: '2.0', id, method, params: holder };
          expect(stringifyMessage(message)).toBe(JSON.stringify(message));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('quotes every character as JSON.stringify does, in keys and values', () => {
    const codes = [
      ...Array.from({ length: 0x100 }, (_, code) => code),
      0x2028,
      0x2029,
      0xd7ff,
      0xd800,
      0xdbff,
      0xdc00,
      0xdfff,
      0xe000,
      0xfeff,
      0xffff,
    ];
    for (const code of codes) {
      const char = String.fromCharCode(code);
      const message = { jsonrpc: '2.0', id: 1, method: `m${char}`, params: { name: `a${char}b`, [char]: char, _meta: meta } };
      expect(stringifyMessage(message)).toBe(JSON.stringify(message));
    }
    const pair = { jsonrpc: '2.0', id: 1, method: 'm', params: { name: '\ud83d\ude00', _meta: meta } };
    expect(stringifyMessage(pair)).toBe(JSON.stringify(pair));
  });

  it('leaves a value with toJSON, a bigint and a holder that is not a plain object to JSON.stringify of the whole', () => {
    const keyed = { toJSON: (key: string) => `seen as ${key}` };
    const withKeyed = { jsonrpc: '2.0', id: 1, method: 'm', params: { named: keyed, _meta: meta } };
    expect(stringifyMessage(withKeyed)).toBe(JSON.stringify(withKeyed));
    expect(stringifyMessage(withKeyed)).toContain('"seen as named"');
    const bigintToJSON = Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON');
    Object.defineProperty(BigInt.prototype, 'toJSON', {
      configurable: true,
      value(this: bigint, key: string) {
        return `${key}=${this.toString()}`;
      },
    });
    try {
      const big = { jsonrpc: '2.0', id: 1, method: 'm', params: { count: 12n, _meta: meta } };
      expect(stringifyMessage(big)).toBe(JSON.stringify(big));
      expect(stringifyMessage(big)).toContain('"count=12"');
    } finally {
      if (bigintToJSON) Object.defineProperty(BigInt.prototype, 'toJSON', bigintToJSON);
      else delete (BigInt.prototype as { toJSON?: unknown }).toJSON;
    }
    class Params {
      name = 'n';
      _meta = meta;
    }
    const instance = { jsonrpc: '2.0', id: 1, method: 'm', params: new Params() };
    expect(stringifyMessage(instance)).toBe(JSON.stringify(instance));
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { name: 'n', _meta: meta });
    const bare = { jsonrpc: '2.0', id: 1, method: 'm', params: nullProto };
    expect(stringifyMessage(bare)).toBe(JSON.stringify(bare));
  });

  it('throws what JSON.stringify throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyMessage({ jsonrpc: '2.0', id: 1, method: 'm', params: { cyclic, _meta: meta } })).toThrow(TypeError);
    expect(() => stringifyMessage({ jsonrpc: '2.0', id: 1, method: 'm', params: { big: 1n, _meta: meta } })).toThrow(TypeError);
  });
});
