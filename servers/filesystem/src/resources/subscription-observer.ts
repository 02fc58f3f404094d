/**
 * Which file URIs clients are subscribed to, read off the messages of a connection: `@wiremcp/server` keeps its
 * subscriptions to itself and only needs `notifyResourceUpdated(uri)`, but a filesystem server must know what to
 * watch. This wraps a transport without changing anything it carries and tells the watch hub about legacy
 * `resources/subscribe` / `resources/unsubscribe`, 2026-07-28 `subscriptions/listen` streams (opened by the request,
 * ended by its response or its cancellation), and the connection closing.
 */
import type { MessageInfo, Transport } from '@wiremcp/jsonrpc';
import type { WatchHub } from './watch-hub.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The subscriptions of one connection. */
class ConnectionInterest {
  readonly #subscribed = new Set<string>();
  readonly #listens = new Map<string, string[]>();
  #closed = false;

  constructor(readonly hub: WatchHub) {}

  incoming(message: unknown): void {
    if (Array.isArray(message)) {
      for (const item of message) this.incoming(item);
      return;
    }
    if (this.#closed || !isObject(message) || typeof message.method !== 'string') return;
    const params = isObject(message.params) ? message.params : {};
    switch (message.method) {
      case 'resources/subscribe':
        if (typeof params.uri === 'string' && !this.#subscribed.has(params.uri)) {
          this.#subscribed.add(params.uri);
          this.hub.add(params.uri);
        }
        break;
      case 'resources/unsubscribe':
        if (typeof params.uri === 'string' && this.#subscribed.delete(params.uri)) this.hub.remove(params.uri);
        break;
      case 'subscriptions/listen': {
        const wanted = isObject(params.notifications) ? params.notifications.resourceSubscriptions : undefined;
        if (message.id === undefined || !Array.isArray(wanted)) break;
        const uris = [...new Set(wanted.filter((uri): uri is string => typeof uri === 'string'))].slice(0, 1000);
        const key = JSON.stringify(message.id);
        this.#endListen(key);
        this.#listens.set(key, uris);
        for (const uri of uris) this.hub.add(uri);
        break;
      }
      case 'notifications/cancelled':
        if (params.requestId !== undefined) this.#endListen(JSON.stringify(params.requestId));
        break;
    }
  }

  outgoing(message: unknown): void {
    if (Array.isArray(message)) {
      for (const item of message) this.outgoing(item);
      return;
    }
    // A response to a listen request ends its stream.
    if (isObject(message) && message.id !== undefined && message.method === undefined) this.#endListen(JSON.stringify(message.id));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const uri of this.#subscribed) this.hub.remove(uri);
    this.#subscribed.clear();
    for (const key of [...this.#listens.keys()]) this.#endListen(key);
  }

  #endListen(key: string): void {
    const uris = this.#listens.get(key);
    if (!uris) return;
    this.#listens.delete(key);
    for (const uri of uris) this.hub.remove(uri);
  }
}

/** A transport that reports subscriptions to `hub` and otherwise behaves exactly like `inner`. */
export class ObservedTransport implements Transport {
  readonly #inner: Transport;
  readonly #interest: ConnectionInterest;
  #onmessage: Transport['onmessage'];
  #onclose: Transport['onclose'];

  constructor(inner: Transport, hub: WatchHub) {
    this.#inner = inner;
    this.#interest = new ConnectionInterest(hub);
    inner.onclose = () => {
      this.#interest.close();
      this.#onclose?.();
    };
  }

  get onmessage(): Transport['onmessage'] {
    return this.#onmessage;
  }

  set onmessage(handler: Transport['onmessage']) {
    this.#onmessage = handler;
    this.#inner.onmessage = handler
      ? (message: unknown, info?: MessageInfo) => {
          this.#interest.incoming(message);
          handler(message, info);
        }
      : undefined;
  }

  get onclose(): Transport['onclose'] {
    return this.#onclose;
  }

  set onclose(handler: Transport['onclose']) {
    this.#onclose = handler;
  }

  get onerror(): Transport['onerror'] {
    return this.#inner.onerror;
  }

  set onerror(handler: Transport['onerror']) {
    this.#inner.onerror = handler;
  }

  get onend(): Transport['onend'] {
    return this.#inner.onend;
  }

  set onend(handler: Transport['onend']) {
    this.#inner.onend = handler;
  }

  get closeReason(): Error | undefined {
    return this.#inner.closeReason;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    this.#interest.outgoing(args[0]);
    return this.#inner.send(...args);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  cancelRequest(id: Parameters<NonNullable<Transport['cancelRequest']>>[0]): void {
    this.#inner.cancelRequest?.(id);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.#inner[Symbol.asyncDispose]();
  }
}

/** The subset of a server a dispatched exchange needs. */
interface Dispatcher<R> {
  dispatch(message: unknown, exchange: never): Promise<R>;
}

/**
 * Serves one message through `server.dispatch` (a 2026-07-28 HTTP POST), telling `hub` about the resources a
 * `subscriptions/listen` exchange watches for as long as it is open.
 */
export async function observedDispatch<R>(server: Dispatcher<R>, hub: WatchHub, message: unknown, exchange: never): Promise<R> {
  const interest = new ConnectionInterest(hub);
  interest.incoming(message);
  try {
    return await server.dispatch(message, exchange);
  } finally {
    interest.close();
  }
}
