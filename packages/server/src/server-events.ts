/**
 * Server-wide events crossing processes. When several processes serve one endpoint (behind a load balancer), a
 * list change or a resource update raised on one process must reach the 2026-07-28 listen streams held by the
 * others. A transport with a channel between the processes (the HTTP handler's `bus`) attaches a relay: every
 * event raised here is handed to `publish`, and every event another process raised is handed back through
 * `deliver`, which passes it to this process's listen streams only — each applies its own filter and stamps its
 * own `subscriptionId`. Legacy sessions are left out: a legacy session may be held by several processes at once,
 * and each copy already hears the events of its own process.
 *
 * Each event carries a random id; a server remembers the ids it raised or delivered lately and drops repeats, so
 * an event published through two relays, or heard back by the process that raised it, is delivered once.
 */
import type { ListKind } from './subscriber-registry.js';

/** A server-wide event as it travels between processes (plain data: it serialises as JSON). */
export type ServerEvent =
  | { readonly id: string; readonly kind: 'listChanged'; readonly list: ListKind }
  | { readonly id: string; readonly kind: 'resourceUpdated'; readonly uri: string };

/** A relay attached by `McpServer.relayEvents`. */
export interface ServerEventRelay {
  /**
   * Hands an event another process raised to this process's listen streams. The value comes from the wire: anything
   * that is not a {@link ServerEvent}, and any event already seen here, is ignored.
   */
  deliver(event: unknown): void;
  /**
   * The id of the event being handed to this process's subscribers at this moment — one raised here (the id it is
   * published under) or one {@link deliver} passes on — and `undefined` outside that synchronous hand-out. A
   * transport reads it while sending the notification a subscriber makes of the event, to know which relayed event
   * that notification carries (an HTTP session's stream hand-over uses it to drop a copy it would otherwise send
   * twice). Events raised with no relay attached, or with a URI too long to relay, have no id.
   */
  readonly current: string | undefined;
  /** Detaches the relay: events raised here are no longer published through it. Idempotent. */
  stop(): void;
}

/** Longest URI relayed (a resource update with a longer one is not published, nor accepted). */
export const MAX_RELAYED_URI_LENGTH = 8192;
/** Ids remembered to drop repeats. */
const REMEMBERED = 1024;
const LISTS: ReadonlySet<string> = new Set<ListKind>(['tools', 'prompts', 'resources']);

/** Whether `value` is a well-formed {@link ServerEvent}. */
export function isServerEvent(value: unknown): value is ServerEvent {
  const event = value as Partial<Record<string, unknown>> | null;
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || event.id.length === 0 || event.id.length > 64) {
    return false;
  }
  if (event.kind === 'listChanged') return typeof event.list === 'string' && LISTS.has(event.list);
  return event.kind === 'resourceUpdated' && typeof event.uri === 'string' && event.uri.length <= MAX_RELAYED_URI_LENGTH;
}

/** The ids of events seen lately (raised or delivered), oldest forgotten first. */
export class SeenEvents {
  readonly #ids = new Set<string>();

  /** Records `id`; `false` when it was already recorded. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > REMEMBERED) this.#ids.delete(this.#ids.values().next().value!);
    return true;
  }
}

/** A fresh event id. */
export function newEventId(): string {
  return crypto.randomUUID();
}
