/**
 * Where server notifications go: to the listen stream they belong to (by `_meta.subscriptionId`), otherwise to the
 * client's listeners — and, in the modern era, which listen stream the client keeps open so that those listeners
 * receive list changes and resource updates at all (see managed-listen.ts).
 */
import { LocalError, truncateInput } from '@wiremcp/protocol';
import { listenerHandle, type ListenerHandle } from './listener-handle.js';
import { ManagedListen } from './managed-listen.js';
import { NotificationHub, type NotificationListener, type ParamsOf, type ServerNotification } from './notification-hub.js';
import type { CallOptions } from './options.js';
import type { ClientPeer, SubscriptionFilter } from './types.js';

/** The peer seen as taking any notification method: the router forwards every method someone listens to by name. */
interface AnyNotificationPeer {
  setNotificationHandler(method: string, handler: (params: Record<string, unknown> | undefined) => void): void;
}
import type { Session } from './session.js';

/** Notifications every connection listens to (others are added when someone subscribes to them by name). */
const KNOWN_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/message',
  'notifications/progress',
  'notifications/cancelled',
  'notifications/elicitation/complete',
  'notifications/tasks/status',
  'notifications/subscriptions/acknowledged',
];
const KNOWN = new Set(KNOWN_NOTIFICATIONS);

/** List-change notifications and the listen filter key that asks for each. */
const LIST_CHANGED: ReadonlyArray<readonly [string, 'tools' | 'prompts' | 'resources', keyof SubscriptionFilter]> = [
  ['notifications/tools/list_changed', 'tools', 'toolsListChanged'],
  ['notifications/prompts/list_changed', 'prompts', 'promptsListChanged'],
  ['notifications/resources/list_changed', 'resources', 'resourcesListChanged'],
];
const LIST_CHANGED_METHODS = new Set(LIST_CHANGED.map(([method]) => method));

/** The rejection of a `ready` promise for changes the server does not announce. */
function notAnnounced(kind: string): LocalError {
  return new LocalError('CAPABILITY_NOT_SUPPORTED', `The server does not announce changes to its ${kind} list (no ${kind}.listChanged)`);
}

/** Routes notifications; owns the listeners, the managed listen stream and the modern resource subscriptions. */
export class NotificationRouter {
  readonly hub: NotificationHub;
  readonly managed: ManagedListen;
  /** Resources subscribed in the modern era (carried by the managed listen stream). */
  readonly subscribed = new Set<string>();
  readonly #session: () => Session | undefined;
  readonly #observe: (method: string, params: Record<string, unknown> | undefined) => void;
  readonly #report: (error: unknown) => void;
  /** `ready` promises asked for before connecting: settled once a connection has opened its stream. */
  readonly #startWaiters: Array<() => void> = [];

  /**
   * `session` is the current session; `observe` sees every notification first (cache invalidation); `report`
   * receives listener failures.
   */
  constructor(
    session: () => Session | undefined,
    observe: (method: string, params: Record<string, unknown> | undefined) => void,
    report: (error: unknown) => void,
  ) {
    this.#session = session;
    this.#observe = observe;
    this.#report = report;
    this.hub = new NotificationHub(report);
    this.hub.onchange = (method) => this.#listenersChanged(method);
    this.managed = new ManagedListen({
      desired: () => this.#desiredFilter(),
      open: (filter, deliver) => {
        const current = this.#session();
        if (!current) throw new Error('not connected');
        return current.listen(filter, { onNotification: deliver });
      },
      emit: (notification) => this.hub.emit(notification.method, notification.params),
    });
  }

  /** Installs the notification handlers on a new connection's peer; `session` resolves once negotiated. */
  install(peer: ClientPeer, session: () => Session | undefined): void {
    const any = peer as unknown as AnyNotificationPeer;
    for (const method of new Set([...KNOWN_NOTIFICATIONS, ...this.hub.methods()])) {
      any.setNotificationHandler(method, (params) => this.#route(session(), method, params));
    }
  }

  /** Opens the managed stream a modern connection needs for the listeners registered so far. */
  start(): Promise<void> {
    const session = this.#session();
    const started = session?.era === 'modern' ? this.managed.refresh() : Promise.resolve();
    const waiters = this.#startWaiters.splice(0);
    const wake = (): void => {
      for (const waiter of waiters) waiter();
    };
    started.then(wake, wake);
    return started;
  }

  /** Adds a listener of `method` (`'*'`: of every notification); see {@link ListenerHandle}. */
  on<M extends string>(method: M, listener: NotificationListener<ParamsOf<M>>): ListenerHandle {
    return listenerHandle(this.hub.on(method, listener), () => this.ready(method));
  }

  /** Adds a listener of every notification. */
  onAny(listener: (notification: ServerNotification) => void): ListenerHandle {
    return listenerHandle(this.hub.onAny(listener), () => this.ready('*'));
  }

  /**
   * Resolves once notifications of `method` can arrive: at once in a legacy session (rejecting with
   * `CAPABILITY_NOT_SUPPORTED` for a list the server does not announce changes of); in 2026-07-28 once the managed
   * listen stream carrying them is acknowledged (rejecting with the stream's failure, or `CAPABILITY_NOT_SUPPORTED`
   * when the acknowledgement leaves them out). Before connecting: once a connection opened its stream.
   */
  ready(method: string): Promise<void> {
    const session = this.#session();
    if (!session) return new Promise<void>((resolve) => this.#startWaiters.push(resolve)).then(() => this.ready(method));
    const list = LIST_CHANGED.find(([listed]) => listed === method);
    if (session.era === 'legacy') {
      return list && !session.serverCapabilities[list[1]]?.listChanged ? Promise.reject(notAnnounced(list[1])) : Promise.resolve();
    }
    if (!list && method !== '*') return Promise.resolve();
    return this.managed.refresh().then(() => {
      if (list && this.managed.acknowledged?.[list[2]] !== true) throw notAnnounced(list[1]);
    });
  }

  /**
   * `subscribeResource` / `unsubscribeResource` on `session`: legacy `resources/subscribe` / `unsubscribe`; in
   * 2026-07-28 the URI is added to (taken off) the managed stream, resolving once acknowledged.
   */
  async subscribeResource(session: Session, uri: string, subscribe: boolean, options: CallOptions | undefined): Promise<void> {
    const method = subscribe ? 'resources/subscribe' : 'resources/unsubscribe';
    if (session.era === 'legacy') return void (await session.request(method, { uri }, options));
    if (!subscribe) return this.unsubscribe(uri);
    const missing = session.gate(method);
    if (missing) throw missing;
    await this.subscribe(uri);
  }

  /**
   * Adds `uri` to the managed stream (modern `subscribeResource`); resolves once the server acknowledged it, or
   * rejects (`CAPABILITY_NOT_SUPPORTED` when the acknowledgement leaves the uri out).
   */
  async subscribe(uri: string): Promise<void> {
    this.subscribed.add(uri);
    try {
      await this.managed.refresh();
    } catch (error) {
      this.subscribed.delete(uri);
      throw error;
    }
    if (!this.managed.acknowledged?.resourceSubscriptions?.includes(uri)) {
      this.subscribed.delete(uri);
      await this.managed.refresh().catch(this.#report);
      throw new LocalError('CAPABILITY_NOT_SUPPORTED', `The server did not acknowledge the subscription to ${truncateInput(uri)}`, {
        details: { uri },
      });
    }
  }

  /** Takes `uri` off the managed stream (modern `unsubscribeResource`). */
  async unsubscribe(uri: string): Promise<void> {
    if (this.subscribed.delete(uri)) await this.managed.refresh();
  }

  /** The connection closed: streams are gone, subscriptions with them. */
  reset(): void {
    this.managed.reset();
    this.subscribed.clear();
  }

  #route(session: Session | undefined, method: string, params: Record<string, unknown> | undefined): void {
    if (method === 'notifications/cancelled') session?.cancelledByServer(params?.requestId);
    this.#observe(method, params);
    // Notifications of a listen stream go to that stream only (the managed stream forwards to the listeners).
    if (session?.routeToStream(method, params)) return;
    this.hub.emit(method, params);
  }

  #listenersChanged(method: string): void {
    const session = this.#session();
    if (!session) return;
    if (method !== '*' && !KNOWN.has(method)) {
      (session.peer as unknown as AnyNotificationPeer).setNotificationHandler(method, (params) =>
        this.#route(this.#session(), method, params),
      );
    }
    if (session.era === 'modern' && (method === '*' || LIST_CHANGED_METHODS.has(method))) this.managed.refresh().catch(this.#report);
  }

  /** The managed stream's filter: list changes someone listens to (and the server offers), subscribed uris. */
  #desiredFilter(): SubscriptionFilter | undefined {
    const session = this.#session();
    if (!session || session.era !== 'modern') return undefined;
    const caps = session.serverCapabilities;
    const everything = this.hub.anyCount() > 0;
    const filter: SubscriptionFilter = {};
    for (const [method, kind, key] of LIST_CHANGED) {
      if ((everything || this.hub.count(method) > 0) && caps[kind]?.listChanged) (filter as Record<string, unknown>)[key] = true;
    }
    if (this.subscribed.size > 0) filter.resourceSubscriptions = [...this.subscribed];
    return Object.keys(filter).length === 0 ? undefined : filter;
  }
}
