/**
 * The listen stream the client keeps open by itself in the modern era, so that the era-neutral API works the same
 * in both eras: `onToolsListChanged(cb)` and friends, and `subscribeResource(uri)`. In a legacy session those are
 * plain notifications and `resources/subscribe`; in 2026-07-28 they only exist on a `subscriptions/listen` stream.
 *
 * The wanted filter is recomputed on every change (a first listener added, a last one removed, a resource
 * subscribed); when it differs from the open stream's, a new stream is opened and, once the server has acknowledged
 * it, the old one is cancelled — so no notification is lost in between (at worst one is delivered twice during the
 * switch). Changes are applied one at a time, in order. A stream the server ends is not reopened until the next
 * change, so a server that refuses streams cannot make the client loop.
 */
import type { ListenStream } from './listen.js';
import type { ServerNotification } from './notification-hub.js';
import type { SubscriptionFilter } from './types.js';

/** What the managed stream needs from the client. */
export interface ManagedListenHost {
  /** The filter wanted right now (`undefined`: no stream needed). */
  desired(): SubscriptionFilter | undefined;
  /** Opens a stream whose notifications go to `deliver`. */
  open(filter: SubscriptionFilter, deliver: (notification: ServerNotification) => void): ListenStream;
  /** Delivers a notification of the managed stream to the client's listeners. */
  emit(notification: ServerNotification): void;
}

/** One client-managed listen stream; see the module comment. */
export class ManagedListen {
  readonly #host: ManagedListenHost;
  #current: ListenStream | undefined;
  #pending: ListenStream | undefined;
  #currentKey = '';
  #chain: Promise<void> = Promise.resolve();

  constructor(host: ManagedListenHost) {
    this.#host = host;
  }

  /** What the open stream was acknowledged for (`undefined` when none is open). */
  get acknowledged(): SubscriptionFilter | undefined {
    return this.#current && !this.#current.ended ? this.#current.acknowledged : undefined;
  }

  /** Brings the stream in line with the wanted filter; resolves once it is (rejects if the server refused). */
  refresh(): Promise<void> {
    const next = this.#chain.then(
      () => this.#apply(),
      () => this.#apply(),
    );
    this.#chain = next;
    return next;
  }

  /** Forgets the streams (the connection closed; they have ended). */
  reset(): void {
    this.#current = undefined;
    this.#pending = undefined;
    this.#currentKey = '';
  }

  async #apply(): Promise<void> {
    if (this.#current?.ended) {
      this.#current = undefined;
      this.#currentKey = '';
    }
    const filter = this.#host.desired();
    const key = filter === undefined ? '' : JSON.stringify(filter);
    if (key === this.#currentKey) return;
    const old = this.#current;
    if (filter === undefined) {
      this.#current = undefined;
      this.#currentKey = '';
      if (old) await old.close();
      return;
    }
    const stream = this.#host.open(filter, (notification) => {
      if (stream === this.#current || stream === this.#pending) this.#host.emit(notification);
    });
    this.#pending = stream;
    try {
      await stream.ready;
    } finally {
      if (this.#pending === stream) this.#pending = undefined;
    }
    this.#current = stream;
    this.#currentKey = key;
    if (old) await old.close();
  }
}
