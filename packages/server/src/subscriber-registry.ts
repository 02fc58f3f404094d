/**
 * The server-wide fan-out: every legacy session and every 2026-07-28 listen stream — over stdio, over any
 * connected transport, or held open by a `dispatch` exchange — registers here, and list changes, resource updates
 * and server-wide log messages reach all of them through this one registry.
 */
import type { LogLevel } from '@wiremcp/protocol';
import { isServerEvent, MAX_RELAYED_URI_LENGTH, newEventId, SeenEvents, type ServerEvent, type ServerEventRelay } from './server-events.js';

/** A list whose changes are announced (`notifications/<kind>/list_changed`). */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** Something that hears server-wide events: a legacy session or a listen stream. Each decides what it forwards. */
export interface Subscriber {
  /** The list of `kind` changed. */
  listChanged(kind: ListKind): void;
  /** The resource `uri` changed. */
  resourceUpdated(uri: string): void;
  /** A server-wide log message (legacy sessions only; 2026-07-28 logging is per request). */
  log?(level: LogLevel, data: unknown, logger: string | undefined): void;
  /** The server is closing: end gracefully, saying why (listen streams). */
  end?(reason: string): void;
  /**
   * Held by this process alone (a listen stream), so it also hears the events other processes of a deployment
   * raised, delivered through a relay (see `server-events.ts`). Absent for legacy sessions.
   */
  readonly hearsOtherProcesses?: boolean;
}

/** The registry; see the module comment. */
export class SubscriberRegistry {
  readonly #subscribers = new Set<Subscriber>();
  readonly #pendingLists = new Set<ListKind>();
  readonly #relays = new Set<(event: ServerEvent) => void>();
  readonly #seen = new SeenEvents();

  /** How many subscribers are registered. */
  get size(): number {
    return this.#subscribers.size;
  }

  add(subscriber: Subscriber): void {
    this.#subscribers.add(subscriber);
  }

  delete(subscriber: Subscriber): void {
    this.#subscribers.delete(subscriber);
  }

  /** Announces a list change. Several changes within one tick become one notification per list. */
  listChanged(kind: ListKind): void {
    if (this.#pendingLists.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.#pendingLists];
        this.#pendingLists.clear();
        for (const subscriber of [...this.#subscribers]) for (const changed of kinds) subscriber.listChanged(changed);
        for (const list of kinds) this.#publish({ id: '', kind: 'listChanged', list });
      });
    }
    this.#pendingLists.add(kind);
  }

  /** Announces that `uri` changed. */
  resourceUpdated(uri: string): void {
    for (const subscriber of [...this.#subscribers]) subscriber.resourceUpdated(uri);
    if (uri.length <= MAX_RELAYED_URI_LENGTH) this.#publish({ id: '', kind: 'resourceUpdated', uri });
  }

  /** Attaches a relay to the other processes of a deployment (see `server-events.ts`). */
  relay(publish: (event: ServerEvent) => void): ServerEventRelay {
    const relay = (event: ServerEvent): void => publish(event);
    this.#relays.add(relay);
    return {
      deliver: (event) => {
        if (!isServerEvent(event) || !this.#seen.add(event.id)) return;
        for (const subscriber of [...this.#subscribers]) {
          if (subscriber.hearsOtherProcesses !== true) continue;
          if (event.kind === 'listChanged') subscriber.listChanged(event.list);
          else subscriber.resourceUpdated(event.uri);
        }
      },
      stop: () => {
        this.#relays.delete(relay);
      },
    };
  }

  /** Hands an event raised here to every relay, under one fresh id (remembered, so it is not delivered back). */
  #publish(event: ServerEvent): void {
    if (this.#relays.size === 0) return;
    const stamped = { ...event, id: newEventId() };
    this.#seen.add(stamped.id);
    for (const relay of [...this.#relays]) relay(stamped);
  }

  /** A server-wide log message. */
  log(level: LogLevel, data: unknown, logger: string | undefined): void {
    for (const subscriber of [...this.#subscribers]) subscriber.log?.(level, data, logger);
  }

  /** Ends every subscriber that can end (listen streams), saying why. */
  endAll(reason: string): void {
    for (const subscriber of [...this.#subscribers]) subscriber.end?.(reason);
  }
}
