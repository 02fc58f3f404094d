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
  /** The id of the event being handed to the subscribers right now (see `ServerEventRelay.current`). */
  #current: string | undefined;

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
        const changes = [...this.#pendingLists].map((list) => ({ list, event: this.#stamp({ id: '', kind: 'listChanged', list }) }));
        this.#pendingLists.clear();
        for (const { event } of changes) if (event !== undefined) this.#publish(event);
        for (const subscriber of [...this.#subscribers])
          for (const { list, event } of changes) this.#fanOut(event, () => subscriber.listChanged(list));
      });
    }
    this.#pendingLists.add(kind);
  }

  /** Announces that `uri` changed. */
  resourceUpdated(uri: string): void {
    const event = uri.length <= MAX_RELAYED_URI_LENGTH ? this.#stamp({ id: '', kind: 'resourceUpdated', uri }) : undefined;
    if (event !== undefined) this.#publish(event);
    this.#fanOut(event, () => {
      for (const subscriber of [...this.#subscribers]) subscriber.resourceUpdated(uri);
    });
  }

  /** Attaches a relay to the other processes of a deployment (see `server-events.ts`). */
  relay(publish: (event: ServerEvent) => void): ServerEventRelay {
    const relay = (event: ServerEvent): void => publish(event);
    this.#relays.add(relay);
    const current = (): string | undefined => this.#current;
    return {
      deliver: (event) => {
        if (!isServerEvent(event) || !this.#seen.add(event.id)) return;
        this.#fanOut(event, () => {
          for (const subscriber of [...this.#subscribers]) {
            if (subscriber.hearsOtherProcesses !== true) continue;
            if (event.kind === 'listChanged') subscriber.listChanged(event.list);
            else subscriber.resourceUpdated(event.uri);
          }
        });
      },
      get current() {
        return current();
      },
      stop: () => {
        this.#relays.delete(relay);
      },
    };
  }

  /** With a relay attached: `event` under a fresh id (remembered, so it is not delivered back). */
  #stamp<E extends ServerEvent>(event: E): E | undefined {
    if (this.#relays.size === 0) return undefined;
    const stamped = { ...event, id: newEventId() };
    this.#seen.add(stamped.id);
    return stamped;
  }

  /** Runs `notify` (handing `event` to subscribers) with `event`'s id as the relay's `current`. */
  #fanOut(event: ServerEvent | undefined, notify: () => void): void {
    const outer = this.#current;
    this.#current = event?.id;
    try {
      notify();
    } finally {
      this.#current = outer;
    }
  }

  /**
   * Hands an event raised here (stamped) to every relay. Before this process's own subscribers get it: a transport
   * seeing it go out (`current`) then knows it is published (nothing else runs in between, so its place on a bus is
   * the same either way).
   */
  #publish(event: ServerEvent): void {
    for (const relay of [...this.#relays]) relay(event);
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
