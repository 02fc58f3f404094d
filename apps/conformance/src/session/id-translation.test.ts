import { expect, test } from 'vitest';
import { IdTranslation } from './id-translation.js';

test('a cell with its process to itself sends its ids as written', () => {
  const ids = new IdTranslation(undefined);
  const message = { jsonrpc: '2.0', id: 2, method: 'ping' };
  expect(ids.outgoing(message)).toBe(message);
  expect(ids.incoming({ jsonrpc: '2.0', id: 2, result: {} })).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  expect(ids.describe()).toBeUndefined();
});

test('on a shared process, request ids move into the cell band and come back', () => {
  const ids = new IdTranslation(2);
  expect(ids.outgoing({ jsonrpc: '2.0', id: 2, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 3_000_002, method: 'ping' });
  expect(ids.outgoing({ jsonrpc: '2.0', id: -5, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 2_999_995, method: 'ping' });
  expect(ids.outgoing({ jsonrpc: '2.0', id: 'a', method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 'c2~a', method: 'ping' });
  expect(ids.incoming({ jsonrpc: '2.0', id: 3_000_002, result: {} })).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  expect(ids.incoming({ jsonrpc: '2.0', id: 2_999_995, result: {} })).toEqual({ jsonrpc: '2.0', id: -5, result: {} });
  expect(ids.incoming({ jsonrpc: '2.0', id: 'c2~a', error: { code: 1, message: 'm' } })).toMatchObject({ id: 'a' });
  // Batches, cancellations of the cell's own requests, and listen streams' subscription ids.
  expect(ids.outgoing([{ jsonrpc: '2.0', id: 11, method: 'ping' }])).toEqual([{ jsonrpc: '2.0', id: 3_000_011, method: 'ping' }]);
  expect(ids.outgoing({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: 3_000_002 },
  });
  const meta = (id: number) => ({ 'io.modelcontextprotocol/subscriptionId': id });
  expect(ids.incoming({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta(3_000_010) } })).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/tools/list_changed',
    params: { _meta: meta(10) },
  });
  expect(ids.incoming({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3_000_005 } })).toMatchObject({
    params: { requestId: 5 },
  });
  expect(ids.incoming({ jsonrpc: '2.0', id: 3_000_005, result: { _meta: meta(3_000_005) } })).toEqual({
    jsonrpc: '2.0',
    id: 5,
    result: { _meta: meta(5) },
  });
});

test('ids the server chose, and ids of other cells, are left alone', () => {
  const ids = new IdTranslation(0);
  // A server request and the client's reply to it keep the server's id.
  expect(ids.incoming({ jsonrpc: '2.0', id: 7, method: 'roots/list' })).toEqual({ jsonrpc: '2.0', id: 7, method: 'roots/list' });
  expect(ids.outgoing({ jsonrpc: '2.0', id: 7, result: { roots: [] } })).toEqual({ jsonrpc: '2.0', id: 7, result: { roots: [] } });
  // Another cell's band, a raw id, and ids too large to shift.
  expect(ids.incoming({ jsonrpc: '2.0', id: 2_000_002, result: {} })).toMatchObject({ id: 2_000_002 });
  expect(ids.incoming({ jsonrpc: '2.0', id: 13, result: {} })).toMatchObject({ id: 13 });
  expect(ids.outgoing({ jsonrpc: '2.0', id: 9007199254740991, method: 'ping' })).toMatchObject({ id: 9007199254740991 });
  expect(ids.incoming({ jsonrpc: '2.0', id: 'other', result: {} })).toMatchObject({ id: 'other' });
});
