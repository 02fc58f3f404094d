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

  it('throws what JSON.stringify throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyMessage({ jsonrpc: '2.0', id: 1, method: 'm', params: { cyclic, _meta: meta } })).toThrow(TypeError);
    expect(() => stringifyMessage({ jsonrpc: '2.0', id: 1, method: 'm', params: { big: 1n, _meta: meta } })).toThrow(TypeError);
  });
});
