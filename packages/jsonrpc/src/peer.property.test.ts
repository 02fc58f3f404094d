import fc from 'fast-check';
import { LocalError, RpcError } from '@wiremcp/protocol';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createLinkedPair } from './linked-pair.js';
import { Peer } from './peer.js';

type Action =
  | { type: 'request'; delay: number; timeoutMs: number; withSignal: boolean; fail: boolean }
  | { type: 'abort'; index: number }
  | { type: 'notify' }
  | { type: 'advance'; ms: number }
  | { type: 'close'; side: 'client' | 'server' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('request' as const),
      delay: fc.integer({ min: 0, max: 50 }),
      timeoutMs: fc.constantFrom(0, 5, 30, 1000),
      withSignal: fc.boolean(),
      fail: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('abort' as const), index: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('notify' as const) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('close' as const), side: fc.constantFrom('client' as const, 'server' as const) }) },
);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('random interleavings of requests, responses, cancellations, timeouts and closes leave nothing behind', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
      const [a, b] = createLinkedPair();
      const client = new Peer({ onInternalError: () => {} });
      const server = new Peer({ onInternalError: () => {} });
      server.setRequestHandler('op', (params, ctx) => {
        const { n, delay, fail } = params as { n: number; delay: number; fail: boolean };
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => (fail ? reject(new RpcError(-32000, `failed ${n}`)) : resolve({ n })), delay);
          ctx.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(ctx.signal.reason);
            },
            { once: true },
          );
        });
      });
      let notified = 0;
      let notes = 0;
      server.setNotificationHandler('notifications/note', () => {
        notified += 1;
      });
      await server.connect(b);
      await client.connect(a);

      const outcomes: Array<Promise<{ n: number; ok: boolean; value: unknown }>> = [];
      const controllers: AbortController[] = [];
      let n = 0;
      for (const step of actions) {
        if (step.type === 'request') {
          const controller = new AbortController();
          controllers.push(controller);
          const id = n++;
          outcomes.push(
            client
              .request(
                'op',
                { n: id, delay: step.delay, fail: step.fail },
                {
                  timeoutMs: step.timeoutMs,
                  ...(step.withSignal ? { signal: controller.signal } : {}),
                },
              )
              .then(
                (value) => ({ n: id, ok: true, value }),
                (error: unknown) => ({ n: id, ok: false, value: error }),
              ),
          );
        } else if (step.type === 'abort') {
          controllers[step.index % Math.max(1, controllers.length)]?.abort('stop');
        } else if (step.type === 'notify') {
          notes += 1;
          client.notify('notifications/note', {}).catch(() => {});
        } else if (step.type === 'advance') {
          await vi.advanceTimersByTimeAsync(step.ms);
        } else {
          await (step.side === 'client' ? client.close() : server.close());
        }
      }
      // Let every handler finish, then close: nothing may remain afterwards.
      await vi.advanceTimersByTimeAsync(100);
      await client.close();
      await server.close();
      const settled = await Promise.all(outcomes);

      expect(client.pendingCount).toBe(0);
      expect(server.inflightCount).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
      // Notifications are never duplicated (some are lost to closes).
      expect(notified).toBeLessThanOrEqual(notes);
      for (const outcome of settled) {
        if (outcome.ok) {
          // Correlation: a result always belongs to its own request.
          expect(outcome.value).toEqual({ n: outcome.n });
        } else {
          const error = outcome.value;
          if (error instanceof RpcError) expect(error.message).toBe(`failed ${outcome.n}`);
          else {
            expect(error).toBeInstanceOf(LocalError);
            expect(['REQUEST_CANCELLED', 'REQUEST_TIMEOUT', 'CONNECTION_CLOSED', 'NOT_CONNECTED']).toContain((error as LocalError).code);
          }
        }
      }
    }),
    { numRuns: 150 },
  );
});
