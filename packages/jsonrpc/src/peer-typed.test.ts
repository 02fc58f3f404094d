// A Peer typed with method maps infers params and results at every call site: its own handlers and requests, and
// the requests and notifications a handler makes back through its context. Type assertions are checked by the
// root `tsc -p tsconfig.json`; the calls also run.
import { MAX_QUOTED_INPUT_LENGTH, type RequestId } from '@wiremcp/protocol';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { rawHarness } from './harness.test-util.js';
import { createLinkedPair } from './linked-pair.js';
import { Peer } from './peer.js';

interface CalcRequests {
  add: { params: { a: number; b: number }; result: { sum: number } };
}
interface AskRequests {
  confirm: { params: { question: string }; result: { ok: boolean } };
}
interface CalcNotifications {
  'notifications/done': { total: number };
}

describe('a typed peer', () => {
  test('types handlers, requests and the context calls of a handler', async () => {
    const [a, b] = createLinkedPair();
    const server = new Peer<CalcRequests, AskRequests, Record<never, never>, CalcNotifications>();
    const client = new Peer<AskRequests, CalcRequests, CalcNotifications, Record<never, never>>();
    server.setRequestHandler('add', async (params, ctx) => {
      expectTypeOf(params).toEqualTypeOf<{ a: number; b: number }>();
      const answer = await ctx.request('confirm', { question: `${params.a}+${params.b}?` });
      expectTypeOf(answer).toEqualTypeOf<{ ok: boolean }>();
      await ctx.notify('notifications/done', { total: 1 });
      // @ts-expect-error -- not a notification this side sends
      void ctx.notify('notifications/other', {});
      return { sum: answer.ok ? params.a + params.b : 0 };
    });
    const seen: number[] = [];
    client.setRequestHandler('confirm', (params) => ({ ok: params.question.length > 0 }));
    client.setNotificationHandler('notifications/done', (params) => void seen.push(params.total));
    await server.connect(b);
    await client.connect(a);
    const result = client.request('add', { a: 2, b: 3 });
    expectTypeOf(result).toEqualTypeOf<Promise<{ sum: number }>>();
    expect(await result).toEqual({ sum: 5 });
    expect(seen).toEqual([1]);
    // @ts-expect-error -- params of `add` are numbers
    void client.request('add', { a: '2', b: 3 }).catch(() => {});
    await client.close();
  });

  test('startRequest tells the id the request is sent with', async () => {
    const h = await rawHarness();
    const first = h.peer.startRequest('one', {});
    const second = h.peer.startRequest('two', undefined);
    expectTypeOf(first.id).toEqualTypeOf<RequestId>();
    const sent = (await h.waitFor(2)) as Array<{ id: RequestId; method: string }>;
    expect(sent.map((m) => [m.id, m.method])).toEqual([
      [first.id, 'one'],
      [second.id, 'two'],
    ]);
    h.send({ jsonrpc: '2.0', id: second.id, result: { two: true } });
    await expect(second.result).resolves.toEqual({ two: true });
    await h.peer.close();
    await expect(first.result).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});

describe('errors quote bounded input', () => {
  const MIB = 1024 * 1024;

  test('a 1 MiB method name comes back cut to the bound in -32601', async () => {
    const h = await rawHarness();
    h.send({ jsonrpc: '2.0', id: 1, method: 'm'.repeat(MIB) });
    const [answer] = (await h.waitFor(1)) as Array<{ error: { code: number; message: string } }>;
    expect(answer!.error).toEqual({ code: -32601, message: `Method not found: ${'m'.repeat(MAX_QUOTED_INPUT_LENGTH)}…` });
  });

  test('a 1 MiB id of a request in progress is quoted cut to the bound in the duplicate-id answer', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('wait', () => new Promise(() => {}));
    const id = 'i'.repeat(MIB);
    h.send({ jsonrpc: '2.0', id, method: 'wait' });
    h.send({ jsonrpc: '2.0', id, method: 'wait' });
    const [answer] = (await h.waitFor(1)) as Array<{ id: string; error: { code: number; message: string } }>;
    expect(answer!.error.code).toBe(-32600);
    expect(answer!.error.message.length).toBeLessThan(MAX_QUOTED_INPUT_LENGTH + 100);
    expect(answer!.error.message).toContain(`"${'i'.repeat(MAX_QUOTED_INPUT_LENGTH)}"…`);
    await h.peer.close();
  });
});

describe('closeReason', () => {
  test('keeps why the transport closed after onclose, and forgets it on the next connect', async () => {
    const peer = new Peer();
    const [a] = createLinkedPair();
    const reason = new Error('the child exited with code 3');
    Object.defineProperty(a, 'closeReason', { value: reason });
    await peer.connect(a);
    const closed = new Promise<void>((resolve) => (peer.onclose = resolve));
    await a.close();
    await closed;
    expect(peer.closeReason).toBe(reason);
    const [c, d] = createLinkedPair();
    await d.start();
    await peer.connect(c);
    expect(peer.closeReason).toBeUndefined();
    await peer.close();
  });
});
