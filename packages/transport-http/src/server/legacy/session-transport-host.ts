/**
 * What a legacy session's transport (`SessionTransport`) needs from its session and handler, and the answers it gives
 * a request its session can no longer serve.
 */
import type { RequestId } from '@wiremcp/protocol';
import type { HttpReply } from '../adapter-contract.js';
import type { EventStore } from '../event-store.js';
import { rpcErrorResponse } from '../responses.js';
import { untagRequestId, type BusMessage } from '../session-bus.js';
import type { SsePool } from '../sse-connection.js';

/** What the transport needs from its session and handler. */
export interface SessionTransportHost {
  readonly sessionId: string;
  readonly store: EventStore | undefined;
  readonly pool: SsePool;
  readonly maxStreamsPerSession: number;
  readonly maxQueuedEvents: number;
  readonly retryMs: number;
  readonly report: (error: unknown) => void;
  /** True when new streams start with a priming event (2025-11-25 sessions with an event store). */
  primes(): boolean;
  /** A stream id unique within the session (no `_`). */
  newStreamId(): string;
  /** The transport closed (whoever closed it). */
  closed(): void;
  /**
   * True when the session lives on elsewhere (this process only dropped its copy, e.g. shutting down with shared
   * sessions): a request cut then is told to retry, not that the session is gone.
   */
  keptElsewhere?(): boolean;
  /** The bus to the other processes of the deployment, when sessions are shared. */
  readonly bus?: SessionTransportBus;
  /** How often the process running a stream resumed here is checked, in ms. */
  readonly ownerCheckMs?: number;
}

/** A transport's view of the {@link SessionBus}: this process's tag (`origin`), and publishing (failures reported by it). */
export interface SessionTransportBus {
  readonly origin: string;
  publish(message: BusMessage): void;
  /** Publishes, resolving once the bus took the message (rejects when it could not). */
  publishNow(message: BusMessage): Promise<void>;
  /**
   * True when the server relays its list changes and resource updates between the processes: the process holding a
   * session's standalone stream hears every one of them itself, so the other copies of the session send them nowhere.
   */
  readonly relaysEvents?: boolean;
  /** Whether a process is alive (`SessionBus.alive`), when the bus can tell. */
  alive?(origin: string): Promise<boolean | undefined>;
  /** The id of the relayed server event whose notification is being sent at this moment (`HttpEventRelay.current`). */
  relayedEvent?(): string | undefined;
  /**
   * Session `sessionId` stored the notification being sent at this moment on its standalone stream, as event `seq`
   * (see `late`).
   */
  stored?(sessionId: string, seq: number): void;
  /**
   * The ids of the server events this process published, and session `sessionId` stored on its standalone stream,
   * that have not come back to it on the bus yet: the bus put them after everything this process heard so far.
   */
  late?(sessionId: string): { id: string; seq: number }[];
}

/** The notifications a relaying server delivers to the process holding the standalone stream (see `relaysEvents`). */
export const RELAYED = new Set([
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
]);

export function sessionEnded(): HttpReply {
  return rpcErrorResponse(404, null, -32600, 'Session not found: the session ended');
}

/** A POST cut because this process dropped a session that lives on elsewhere (a drain): retry, not 404. */
export function cutByShutdown(ids: readonly RequestId[]): HttpReply {
  const message = 'Internal error: this server process shut down before the request finished; retry';
  return rpcErrorResponse(503, ids.length === 1 ? ids[0]! : null, -32603, message, { reason: 'shutdown' }, { 'retry-after': '1' });
}

/**
 * What of a client's message is for this process (`running`: whether a request of this id runs here); the rest is
 * published on the bus: answers to another process's requests, cancellations of requests not running here.
 */
export function routeIncoming(message: unknown, bus: SessionTransportBus, sessionId: string, running: (id: RequestId) => boolean): unknown {
  if (Array.isArray(message)) {
    const kept = message
      .map((element: unknown) => routeIncoming(element, bus, sessionId, running))
      .filter((element) => element !== undefined);
    return kept.length === 0 ? undefined : kept;
  }
  const m = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
  if (m.method === undefined) {
    const tag = untagRequestId(m.id);
    if (tag === undefined) return message;
    if (tag.origin === bus.origin) return { ...m, id: tag.id };
    bus.publish({ kind: 'deliver', origin: bus.origin, sessionId, json: JSON.stringify(message) });
    return undefined;
  }
  if (m.method === 'notifications/cancelled' && !running(m.params?.requestId as RequestId)) {
    bus.publish({ kind: 'deliver', origin: bus.origin, sessionId, json: JSON.stringify(message) });
  }
  return message;
}
