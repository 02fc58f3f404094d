import { createLinkedPair, Peer, type LinkedTransportEnd } from '@wiremcp/jsonrpc';
import {
  MetaKey,
  type InputRequiredResult,
  type JsonObject,
  type RpcNotification,
  type ServerStampedResultKey,
  type WithOptionalKeys,
} from '@wiremcp/protocol';
import type { McpServer } from './mcp-server.js';
import type { RequestHandlerParams, RequestHandlerResult } from './server-options.js';

/** An input-required result as a test reads it: with its requests and state (and no caching hints). */
export type InputRequired = WithOptionalKeys<InputRequiredResult, ServerStampedResultKey> &
  Required<Pick<InputRequiredResult, 'inputRequests' | 'requestState'>> & { ttlMs?: number };

/** Narrows a result of an input-capable method to its input-required form (failing the test otherwise). */
export function inputRequired(result: object): InputRequired {
  const typed = result as InputRequired;
  if (typed.resultType !== 'input_required' || typeof typed.inputRequests !== 'object' || typeof typed.requestState !== 'string') {
    throw new Error(`expected an input-required result, got ${JSON.stringify(result)}`);
  }
  return typed;
}

/** The text of content block `index` of a tool result (failing the test when it is not a text block). */
export function text(result: object, index = 0): string {
  const block = (result as { content?: Array<{ type?: string; text?: string }> }).content?.[index];
  if (block?.type !== 'text' || typeof block.text !== 'string') throw new Error(`no text block ${index} in ${JSON.stringify(result)}`);
  return block.text;
}

/** A raw JSON-RPC client peer connected to a server in memory, plus helpers for both eras. */
export interface RawClient {
  peer: Peer;
  transport: LinkedTransportEnd;
  /** Every message received, in order (responses included). */
  messages: unknown[];
  /** Every notification received, in order. */
  notifications: Array<{ method: string; params: RpcNotification['params'] }>;
  /** Sends a request; params and result are typed for the methods of the spec. */
  request<M extends string>(method: M, params?: RequestHandlerParams<M>): Promise<RequestHandlerResult<M>>;
  /** `initialize` then `notifications/initialized`. */
  initialize(protocolVersion?: string, capabilities?: JsonObject): Promise<RequestHandlerResult<'initialize'>>;
  /** A 2026-07-28 request with the required `_meta` (`meta` adds or overrides keys). */
  modern<M extends string>(method: M, params?: JsonObject, meta?: JsonObject): Promise<RequestHandlerResult<M>>;
  /** Resolves once `count` notifications (of `method`, when given) have arrived. */
  notified(count: number, method?: string): Promise<void>;
  /** Resolves with the first message received (so far or later) that `match` accepts. */
  received(match: (message: unknown) => boolean): Promise<unknown>;
  /** A round trip: everything the server sent before answering it has arrived when this resolves. */
  settle(): Promise<void>;
}

/** Connects a {@link RawClient} to `server`. */
export async function rawClient(server: McpServer, options: { batches?: boolean } = {}): Promise<RawClient> {
  const [a, b] = createLinkedPair();
  const peer = new Peer({ onInternalError: () => {} });
  const messages: unknown[] = [];
  const notifications: Array<{ method: string; params: RpcNotification['params'] }> = [];
  const waiters: Array<{ ready: () => boolean; resolve: () => void }> = [];
  peer.setFallbackRequestHandler(() => ({}));
  await server.connect(b);
  await peer.connect(a);
  const originalReceive = peer.receive.bind(peer);
  peer.receive = (message, info) => {
    messages.push(message);
    if (typeof message === 'object' && message !== null && 'method' in message && !('id' in message)) {
      const { method, params } = message as RpcNotification;
      notifications.push({ method, params });
    }
    for (const waiter of [...waiters]) {
      if (waiter.ready()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    originalReceive(message, info);
  };
  if (options.batches) peer.acceptBatches = true;
  const request = <M extends string>(method: M, params?: RequestHandlerParams<M>): Promise<RequestHandlerResult<M>> =>
    peer.request(method, params as JsonObject | undefined) as Promise<RequestHandlerResult<M>>;
  return {
    peer,
    transport: a,
    messages,
    notifications,
    request,
    async initialize(protocolVersion = '2025-11-25', capabilities: JsonObject = {}) {
      const result = await request('initialize', {
        protocolVersion,
        capabilities,
        clientInfo: { name: 'test-client', version: '1.0.0' },
      });
      await peer.notify('notifications/initialized');
      return result;
    },
    modern<M extends string>(method: M, params: JsonObject = {}, meta: JsonObject = {}): Promise<RequestHandlerResult<M>> {
      return peer.request(method, {
        ...params,
        _meta: {
          [MetaKey.protocolVersion]: '2026-07-28',
          [MetaKey.clientCapabilities]: {},
          [MetaKey.clientInfo]: { name: 'modern-client', version: '1.0.0' },
          ...meta,
        },
      }) as Promise<RequestHandlerResult<M>>;
    },
    notified(count: number, method?: string): Promise<void> {
      const ready = () => notifications.filter((n) => method === undefined || n.method === method).length >= count;
      if (ready()) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ ready, resolve }));
    },
    // A ping is served in order with everything before it, so earlier notifications (and list changes announced in
    // earlier ticks) are on the wire before its answer.
    received(match: (message: unknown) => boolean): Promise<unknown> {
      const find = () => messages.find(match);
      if (find() !== undefined) return Promise.resolve(find());
      return new Promise((resolve) => waiters.push({ ready: () => find() !== undefined, resolve: () => resolve(find()) }));
    },
    settle: async (): Promise<void> => {
      await peer.request('ping', undefined);
    },
  };
}
