import { createLinkedPair, type Transport } from '@wiremcp/jsonrpc';
import { describe, expect, it } from 'vitest';
import { ObservedTransport } from './observed-transport.js';
import { WireLog, WireTransport } from './inspect/wire-log.js';
import { TracingTransport } from './trace.js';

describe('ObservedTransport', () => {
  it('shows each message both ways before passing it on unchanged, and passes close, its reason and cancellation through', async () => {
    const [near, far] = createLinkedPair();
    const seen: string[] = [];
    const cancelled: unknown[] = [];
    (near as Transport).cancelRequest = (id) => cancelled.push(id);
    const observed = new ObservedTransport(near, {
      sent: (message) => seen.push(`sent ${JSON.stringify(message)}`),
      received: (message) => seen.push(`received ${JSON.stringify(message)}`),
    });
    const delivered = new Promise<unknown>((resolve) => {
      observed.onmessage = (message) => {
        seen.push('onmessage');
        resolve(message);
      };
    });
    const farGot = new Promise<unknown>((resolve) => (far.onmessage = resolve));
    await far.start();
    await observed.start();
    await observed.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await farGot).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await far.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await delivered).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(seen).toEqual(['sent {"jsonrpc":"2.0","id":1,"method":"ping"}', 'received {"jsonrpc":"2.0","id":1,"result":{}}', 'onmessage']);
    observed.cancelRequest(7);
    expect(cancelled).toEqual([7]);
    const closed = new Promise<void>((resolve) => (observed.onclose = resolve));
    await far.close();
    await closed;
    expect(observed.closeReason).toBe(near.closeReason);
    await expect(observed.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow('closed');
  });

  it('is what --trace and the inspector record with: framed text, and structured wire entries', async () => {
    const [near, far] = createLinkedPair();
    const blocks: string[] = [];
    const traced = new TracingTransport(
      near,
      { sent: (text) => blocks.push(`> ${text}`), received: (text) => blocks.push(`< ${text}`) },
      'ndjson',
    );
    const log = new WireLog();
    const wired = new WireTransport(traced, log);
    await far.start();
    await wired.start();
    await wired.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(blocks).toEqual(['> {"jsonrpc":"2.0","id":2,"method":"ping"}\n']);
    expect(log.entries().map((entry) => [entry.dir, entry.kind])).toEqual([['out', 'message']]);
    await wired.close();
  });
});
