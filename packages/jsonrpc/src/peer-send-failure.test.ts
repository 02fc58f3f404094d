// A response that the transport fails to send has nobody waiting for it: the engine reports the failure to
// `onInternalError`. Transports may return one shared promise for every message they accepted; the engine watches
// such a promise once, and must still see every failure of a promise of its own.
import type { RpcMessage } from '@wiremcp/protocol';
import { expect, test } from 'vitest';
import { Peer } from './peer.js';
import type { Transport } from './transport.js';

const ACCEPTED: Promise<void> = Promise.resolve();

/** A transport that accepts every message with one shared promise, except responses to ids listed in `failFor`. */
function recordingTransport(failFor: ReadonlySet<unknown>): Transport & { sent: RpcMessage[]; deliver(message: unknown): void } {
  const sent: RpcMessage[] = [];
  const transport = {
    sent,
    onmessage: undefined as Transport['onmessage'],
    start: () => ACCEPTED,
    close: () => ACCEPTED,
    [Symbol.asyncDispose]: () => ACCEPTED,
    send(message: RpcMessage | RpcMessage[]): Promise<void> {
      const one = message as RpcMessage & { id?: unknown };
      if (failFor.has(one.id)) return Promise.reject(new Error(`could not write the answer to ${String(one.id)}`));
      sent.push(one);
      return ACCEPTED;
    },
    deliver(message: unknown): void {
      transport.onmessage?.(message);
    },
  };
  return transport;
}

test('every failed send of a response is reported, also between responses accepted with a shared promise', async () => {
  const errors: unknown[] = [];
  const peer = new Peer({ onInternalError: (error) => errors.push(error) });
  const transport = recordingTransport(new Set([2, 4]));
  await peer.connect(transport);
  peer.setRequestHandler('n', (params) => ({ n: params?.n }));
  for (let id = 1; id <= 5; id++) transport.deliver({ jsonrpc: '2.0', id, method: 'n', params: { n: id } });
  for (let turn = 0; errors.length < 2 && turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(transport.sent.map((m) => (m as { id?: unknown }).id)).toEqual([1, 3, 5]);
  expect(errors.map(String)).toEqual(['Error: could not write the answer to 2', 'Error: could not write the answer to 4']);
});
