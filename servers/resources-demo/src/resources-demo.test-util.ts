/**
 * Test wiring: a resources demo (clock without a timer unless asked) served in memory to an `McpClient` of the
 * era under test, with a record of every message the client sent, helpers that wait for notifications (bounded,
 * never a sleep), and cleanup of everything a test opened.
 */
import { McpClient, type ClientOptions } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { afterEach } from 'vitest';
import { createResourcesDemo, type ResourcesDemo, type ResourcesDemoOptions } from './resources-demo.js';

/** The two eras every feature is tested in. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

type Message = Record<string, unknown>;

/** A request the client sent. */
export interface SentRequest {
  method: string;
  id: string | number;
  params: Message;
}

const opened: Array<{ client: McpClient; demo: ResourcesDemo }> = [];
afterEach(async () => {
  for (const { client, demo } of opened.splice(0)) {
    await client.close().catch(() => {});
    await demo.close();
  }
});

/** Options of {@link connectDemo}. */
export interface ConnectOptions {
  demo?: ResourcesDemo;
  demoOptions?: ResourcesDemoOptions;
  clientOptions?: ClientOptions;
}

/** Connects an `McpClient` of `era` (2025-11-25 for legacy unless `clientOptions.protocolVersion` says otherwise). */
export async function connectDemo(era: Era, options: ConnectOptions = {}) {
  const demo = options.demo ?? createResourcesDemo({ tickMs: 0, ...options.demoOptions });
  const [clientEnd, serverEnd] = createLinkedPair();
  const sent: SentRequest[] = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, sendOptions) => {
    sent.push(...([] as SentRequest[]).concat(message as unknown as SentRequest));
    return send(message, sendOptions);
  };
  await demo.server.connect(serverEnd);
  const client = new McpClient({ name: 'resources-demo-test', version: '1.0.0' }, { era, ...options.clientOptions });
  opened.push({ client, demo });
  await client.connect(clientEnd);
  return {
    demo,
    client,
    /** Requests the client sent, of `method`. */
    requests: (method: string) => sent.filter((message) => message.method === method && message.id !== undefined),
  };
}

/**
 * Resolves with the params of the next notification of `method` matching `accept`, registered before the action
 * that causes it. Fails (rather than hanging) after `timeoutMs`.
 */
export function nextNotification(
  client: McpClient,
  method: string,
  accept: (params: Message) => boolean = () => true,
  timeoutMs = 5000,
): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${method} within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on(method, (params: unknown) => {
      if (!accept((params ?? {}) as Message)) return;
      clearTimeout(timer);
      off();
      resolve((params ?? {}) as Message);
    });
  });
}

/** A notification as a watcher saw it. */
export interface Seen {
  method: string;
  params: Message;
}

/**
 * Watches resource changes the way the era allows: legacy, `resources/subscribe` for each uri and listeners for
 * the session's notifications; 2026-07-28, one `subscriptions/listen` stream with that filter (acknowledged before
 * this resolves). `next` returns the first matching notification not returned before, waiting for it if needed.
 */
export async function watch(
  connection: { client: McpClient },
  filter: { resourcesListChanged?: boolean; resourceSubscriptions?: string[] },
  timeoutMs = 5000,
) {
  const { client } = connection;
  const seen: Seen[] = [];
  const taken = new Set<Seen>();
  const waiters = new Set<() => void>();
  const push = (method: string, params: unknown) => {
    seen.push({ method, params: (params ?? {}) as Message });
    for (const wake of [...waiters]) wake();
  };
  let stop: () => Promise<unknown>;
  let acknowledged: unknown;
  if (client.era === 'modern') {
    const stream = await client.listen(filter, { onNotification: ({ method, params }) => push(method, params) });
    acknowledged = stream.acknowledged;
    stop = () => stream.close();
  } else {
    const offs = [client.on('notifications/resources/updated', (params: unknown) => push('notifications/resources/updated', params))];
    if (filter.resourcesListChanged) {
      offs.push(
        client.on('notifications/resources/list_changed', (params: unknown) => push('notifications/resources/list_changed', params)),
      );
    }
    for (const uri of filter.resourceSubscriptions ?? []) await client.subscribeResource(uri);
    stop = async () => offs.forEach((off) => off());
  }
  const find = (method: string, accept: (params: Message) => boolean) => {
    const found = seen.find((item) => !taken.has(item) && item.method === method && accept(item.params));
    if (found) taken.add(found);
    return found;
  };
  return {
    seen,
    acknowledged,
    close: () => stop(),
    next(method: string, accept: (params: Message) => boolean = () => true): Promise<Seen> {
      const found = find(method, accept);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no ${method} within ${timeoutMs} ms; seen: ${JSON.stringify(seen)}`));
        }, timeoutMs);
        const wake = () => {
          const item = find(method, accept);
          if (!item) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(item);
        };
        waiters.add(wake);
      });
    },
  };
}
