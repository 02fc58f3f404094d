/**
 * Driving a client transport directly, without the engine: what it delivers, what it reports, and a request's
 * outcome (the response delivered for its id, or the rejection of `send`).
 */
import type { Transport } from '@wiremcp/jsonrpc';
import type { RequestId } from '@wiremcp/protocol';

/** A started transport and everything it delivered and reported. */
export interface Driven<T extends Transport> {
  readonly transport: T;
  readonly messages: unknown[];
  readonly errors: Error[];
  closed: boolean;
  /** Sends a request; resolves with the response delivered for its id, rejects with what `send` rejected with. */
  request(
    id: RequestId,
    method: string,
    params?: Record<string, unknown>,
  ): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
  /** Resolves once a delivered message matches. */
  delivered(predicate: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves once a reported error matches. */
  reported(predicate: (error: Error) => boolean): Promise<Error>;
}

const open = new Set<Transport>();

/** Starts `transport` and records what it does. */
export async function drive<T extends Transport>(transport: T): Promise<Driven<T>> {
  const waiters: Array<{ predicate: (message: Record<string, unknown>) => boolean; resolve: (message: Record<string, unknown>) => void }> =
    [];
  const errorWaiters: Array<{ predicate: (error: Error) => boolean; resolve: (error: Error) => void }> = [];
  const driven: Driven<T> = {
    transport,
    messages: [],
    errors: [],
    closed: false,
    request: (id, method, params) => {
      const answer = driven.delivered((m) => m.id === id && !('method' in m));
      const sent = transport.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      return Promise.race([answer, sent.then(() => answer)]) as ReturnType<Driven<T>['request']>;
    },
    delivered: (predicate) => {
      const found = driven.messages.find((m) => predicate(m as Record<string, unknown>));
      if (found !== undefined) return Promise.resolve(found as Record<string, unknown>);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    reported: (predicate) => {
      const found = driven.errors.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => errorWaiters.push({ predicate, resolve }));
    },
  };
  transport.onmessage = (message) => {
    driven.messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message as Record<string, unknown>)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message as Record<string, unknown>);
      }
    }
  };
  transport.onerror = (error) => {
    driven.errors.push(error);
    for (const waiter of [...errorWaiters]) {
      if (waiter.predicate(error)) {
        errorWaiters.splice(errorWaiters.indexOf(waiter), 1);
        waiter.resolve(error);
      }
    }
  };
  transport.onclose = () => (driven.closed = true);
  await transport.start();
  open.add(transport);
  return driven;
}

/** Closes every transport still open (for `afterEach`). */
export async function closeAllTransports(): Promise<void> {
  await Promise.all([...open].map((t) => t.close()));
  open.clear();
}

/** The modern `_meta` of a request. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
};

/** Modern params: `params` with the modern `_meta`. */
export function modern(params: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...params, _meta: MODERN_META };
}

/** Resolves after the event loop has turned `turns` times (for "nothing more happened" checks). */
export async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}
