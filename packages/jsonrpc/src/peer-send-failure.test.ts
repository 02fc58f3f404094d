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

/** A transport whose sends of requests share one promise per synchronous burst, rejected when `failing` is set. */
function burstTransport(): Transport & { failing: Error | undefined; sent: number } {
  let burst: Promise<void> | undefined;
  const transport = {
    failing: undefined as Error | undefined,
    sent: 0,
    start: () => ACCEPTED,
    close: () => ACCEPTED,
    [Symbol.asyncDispose]: () => ACCEPTED,
    send(): Promise<void> {
      transport.sent++;
      if (burst === undefined) {
        const failing = transport.failing;
        burst = failing === undefined ? Promise.resolve() : Promise.reject(failing);
        queueMicrotask(() => (burst = undefined));
      }
      return burst;
    },
  };
  return transport;
}

test('requests sent with one shared send promise all fail with SEND_FAILED when it rejects, and only then', async () => {
  const peer = new Peer();
  const transport = burstTransport();
  await peer.connect(transport);
  transport.failing = new Error('pipe broken');
  const failed = [peer.request('a', undefined), peer.request('b', undefined), peer.request('c', undefined)];
  const outcomes = await Promise.allSettled(failed);
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
  for (const outcome of outcomes) {
    const reason = (outcome as PromiseRejectedResult).reason as { code?: string; message?: string; cause?: unknown };
    expect(reason.code).toBe('SEND_FAILED');
    expect(String(reason.cause)).toBe('Error: pipe broken');
  }
  expect(reason(outcomes[1]).message).toBe("Could not send 'b'");
  expect(peer.pendingCount).toBe(0);

  // A later burst that is accepted leaves its requests pending (they wait for their responses).
  transport.failing = undefined;
  const accepted = [peer.request('d', undefined), peer.request('e', undefined)];
  for (const request of accepted) request.catch(() => undefined);
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(peer.pendingCount).toBe(2);
  expect(transport.sent).toBe(5);
  await peer.close();
});

test('a request handed an already rejected shared promise fails too', async () => {
  const peer = new Peer();
  const rejected = Promise.reject(new Error('closed output'));
  rejected.catch(() => undefined);
  const transport: Transport = {
    start: () => ACCEPTED,
    close: () => ACCEPTED,
    [Symbol.asyncDispose]: () => ACCEPTED,
    send: () => rejected,
  };
  await peer.connect(transport);
  await expect(peer.request('first', undefined)).rejects.toMatchObject({ code: 'SEND_FAILED' });
  // Same promise again, after its rejection was seen: the request must not wait forever.
  await expect(peer.request('second', undefined)).rejects.toMatchObject({ code: 'SEND_FAILED', message: "Could not send 'second'" });
  expect(peer.pendingCount).toBe(0);
});

function reason(outcome: PromiseSettledResult<unknown> | undefined): { message?: string } {
  return (outcome as PromiseRejectedResult).reason as { message?: string };
}
