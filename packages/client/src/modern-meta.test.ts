import { MetaKey } from '@wiremcp/protocol';
import { stringifyMessage } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import { buildModernMeta, withExtraMeta, withMeta } from './modern-meta.js';

const meta = buildModernMeta('2026-07-28', {}, { name: 'c', version: '1' }, undefined);

describe('withMeta', () => {
  test('params keep their keys and order, _meta comes last and is the shared object; params are not modified', () => {
    const params = { name: 'echo', arguments: { text: 'hi' } };
    const out = withMeta(params, meta, undefined);
    expect(Object.keys(out)).toEqual(['name', 'arguments', '_meta']);
    expect(out._meta).toBe(meta);
    expect(out.arguments).toBe(params.arguments);
    expect(params).toEqual({ name: 'echo', arguments: { text: 'hi' } });
    expect(withMeta(undefined, meta, undefined)).toEqual({ _meta: meta });
  });

  test("a _meta already in params is replaced where it stands; the caller's extra keys are kept, never the reserved ones", () => {
    const out = withMeta({ _meta: { mine: 1 }, cursor: 'c' }, meta, { traceparent: 't', [MetaKey.protocolVersion]: 'lie' });
    expect(Object.keys(out)).toEqual(['_meta', 'cursor']);
    expect(out._meta).toEqual({ traceparent: 't', ...meta });
  });

  test('a __proto__ key in params stays an own key, as with a spread', () => {
    const params = JSON.parse('{"__proto__":{"polluted":true},"name":"x"}') as Record<string, unknown>;
    const out = withMeta(params, meta, undefined);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'name', '_meta']);
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(JSON.stringify({ ...params, _meta: meta })));
  });
});

describe('withExtraMeta', () => {
  test('only with extra keys; the same shape as withMeta otherwise', () => {
    const params = { name: 'echo' };
    expect(withExtraMeta(params, undefined)).toBe(params);
    expect(withExtraMeta(params, { traceparent: 't' })).toEqual({ name: 'echo', _meta: { traceparent: 't' } });
    expect(withExtraMeta(undefined, { traceparent: 't' })).toEqual({ _meta: { traceparent: 't' } });
  });
});

describe('buildModernMeta', () => {
  test('a frozen snapshot of the values, which a request carries to the wire as JSON.stringify would write it', () => {
    const capabilities = { roots: { listChanged: true } };
    const clientInfo = { name: 'c', version: '1' };
    const built = buildModernMeta('2026-07-28', capabilities, clientInfo, 'info');
    capabilities.roots.listChanged = false;
    clientInfo.version = '2';
    expect(built).toEqual({
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientCapabilities]: { roots: { listChanged: true } },
      [MetaKey.clientInfo]: { name: 'c', version: '1' },
      [MetaKey.logLevel]: 'info',
    });
    expect(Object.isFrozen(built[MetaKey.clientCapabilities])).toBe(true);
    const message = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: withMeta({ name: 'echo' }, built, undefined) };
    expect(stringifyMessage(message)).toBe(JSON.stringify(message));
  });
});
