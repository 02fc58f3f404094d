/**
 * 2026-07-28 `subscriptions/listen` streams on the server side. A stream is one long-lived request: the server
 * acknowledges the subset of the filter it honours, then forwards matching list changes and resource updates,
 * each tagged with `_meta.subscriptionId` = the request's id, until the stream ends:
 *
 * - gracefully, when the server closes, or the connection it arrived on closes or reaches end of input:
 *   `notifications/cancelled` for the listen request, then its response (the spec asks for both);
 * - quietly, when the request is cancelled (the client's `notifications/cancelled`, a closed transport, or the
 *   abort of a `dispatch` exchange): the stream is gone, nothing more is sent.
 */
import {
  hasCapability,
  invalidParams,
  MetaKey,
  type EraNeutralResult,
  type ProtocolVersion,
  type RequestId,
  type SubscriptionFilter,
} from '@wiremcp/protocol';
import type { InternalErrorReporter } from '@wiremcp/jsonrpc';
import { RequestHandlerContext, type RequestScope } from './handler-context.js';
import type { ServerRequestContext, WireParams } from './server-peer.js';
import type { ListKind, Subscriber, SubscriberRegistry } from './subscriber-registry.js';
import { endSubscription, startSubscription, type SubscriptionHooks } from './subscription-hooks.js';
import type { TaskService } from './task-service.js';
import { extensionRequired, modernTask, TASKS_EXTENSION } from './task-wire.js';

/** Most task ids one stream may follow. */
const MAX_TASK_IDS = 100;

/** What opening a stream needs from the server. */
export interface ListenHost {
  /** The task service, when the server serves tasks (streams may then follow tasks: `notifications.taskIds`). */
  readonly tasks: TaskService | undefined;
  capabilitiesFor(version: ProtocolVersion): Readonly<Record<string, unknown>>;
  readonly subscribers: SubscriberRegistry;
  /** The author's subscription hooks. */
  readonly subscriptionHooks: SubscriptionHooks;
  /** Receives internal errors (a failing `onUnsubscribe`). */
  readonly report: InternalErrorReporter;
}

/** The streams of one connection, ended with it; `undefined` where streams end only with their request. */
export type ListenOwner = Set<ListenStream> | undefined;

type ListenResult = EraNeutralResult<'subscriptions/listen'>;

/** One open stream. */
export class ListenStream implements Subscriber {
  readonly id: RequestId;
  readonly hearsOtherProcesses = true;
  readonly #rpc: ServerRequestContext;
  readonly #lists: ReadonlySet<ListKind>;
  readonly #resources: ReadonlySet<string>;
  readonly #subscribers: SubscriberRegistry;
  readonly #owner: ListenOwner;
  readonly #resolve: (result: ListenResult) => void;
  readonly #onEnd: (() => void) | undefined;
  #ended = false;

  constructor(
    rpc: ServerRequestContext,
    lists: ReadonlySet<ListKind>,
    resources: ReadonlySet<string>,
    subscribers: SubscriberRegistry,
    owner: ListenOwner,
    resolve: (result: ListenResult) => void,
    onEnd?: () => void,
  ) {
    this.id = rpc.id;
    this.#rpc = rpc;
    this.#lists = lists;
    this.#resources = resources;
    this.#subscribers = subscribers;
    this.#owner = owner;
    this.#resolve = resolve;
    this.#onEnd = onEnd;
    subscribers.add(this);
    owner?.add(this);
  }

  listChanged(kind: ListKind): void {
    if (this.#lists.has(kind)) {
      this.#rpc.notify(`notifications/${kind}/list_changed`, { _meta: { [MetaKey.subscriptionId]: this.id } }).catch(() => {});
    }
  }

  resourceUpdated(uri: string): void {
    if (this.#resources.has(uri)) {
      this.#rpc.notify('notifications/resources/updated', { _meta: { [MetaKey.subscriptionId]: this.id }, uri }).catch(() => {});
    }
  }

  /**
   * Ends the stream. With a `reason` (a graceful end), `notifications/cancelled` for the listen request goes
   * first, then its response; without one (the request was cancelled), only the bookkeeping. Idempotent.
   */
  end(reason?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#subscribers.delete(this);
    this.#owner?.delete(this);
    this.#onEnd?.();
    const rpc = this.#rpc;
    if (reason !== undefined && !rpc.cancelled) rpc.notify('notifications/cancelled', { requestId: this.id, reason }).catch(() => {});
    this.#resolve({ _meta: { [MetaKey.subscriptionId]: this.id } });
  }
}

/** Serves `subscriptions/listen`: acknowledges the honoured filter and resolves when the stream ends. */
export function openListenStream(
  params: WireParams,
  scope: RequestScope,
  rpc: ServerRequestContext,
  host: ListenHost,
  owner: ListenOwner,
): Promise<ListenResult> {
  const requested = (params?.notifications ?? {}) as Record<string, unknown>;
  if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
    throw invalidParams('Invalid params: "notifications" must be an object');
  }
  const caps = host.capabilitiesFor(scope.protocolVersion);
  const honoured: SubscriptionFilter = {};
  const lists = new Set<ListKind>();
  const wants = (key: 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged', kind: ListKind): void => {
    if (requested[key] === true && hasCapability(caps, [kind, 'listChanged'])) {
      honoured[key] = true;
      lists.add(kind);
    }
  };
  wants('toolsListChanged', 'tools');
  wants('promptsListChanged', 'prompts');
  wants('resourcesListChanged', 'resources');
  let resources: string[] = [];
  if (Array.isArray(requested.resourceSubscriptions) && hasCapability(caps, ['resources', 'subscribe'])) {
    resources = requested.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string');
    honoured.resourceSubscriptions = resources;
  }
  const followTasks = taskFollower(requested.taskIds, scope, rpc, host, honoured);
  const hooks = host.subscriptionHooks;
  if (resources.length === 0 || (!hooks.onSubscribe && !hooks.onUnsubscribe)) {
    return new Promise((resolve) => open(rpc, lists, new Set(resources), honoured, host, owner, resolve, followTasks?.()));
  }
  // The author hears of each distinct URI; the acknowledgement names those `onSubscribe` accepted.
  const context = new RequestHandlerContext(rpc, scope, undefined);
  const distinct = [...new Set(resources)];
  return Promise.all(
    distinct.map((uri) => {
      const started = startSubscription(hooks, uri, context);
      return started
        ? started.then(
            () => uri,
            () => undefined,
          )
        : uri;
    }),
  ).then((outcomes) => {
    const accepted = outcomes.filter((uri): uri is string => uri !== undefined);
    const stopTasks = followTasks?.();
    const onEnd = () => {
      stopTasks?.();
      for (const uri of accepted) endSubscription(hooks, uri, context, host.report);
    };
    honoured.resourceSubscriptions = accepted;
    return new Promise<ListenResult>((resolve) => open(rpc, lists, new Set(accepted), honoured, host, owner, resolve, onEnd));
  });
}

/** Opens the stream and acknowledges it; a request cancelled meanwhile ends at once (without a word). */
function open(
  rpc: ServerRequestContext,
  lists: ReadonlySet<ListKind>,
  resources: ReadonlySet<string>,
  honoured: SubscriptionFilter,
  host: ListenHost,
  owner: ListenOwner,
  resolve: (result: ListenResult) => void,
  onEnd?: () => void,
): void {
  const stream = new ListenStream(rpc, lists, resources, host.subscribers, owner, resolve, onEnd);
  if (rpc.cancelled) {
    stream.end();
    return;
  }
  rpc.signal.addEventListener('abort', () => stream.end(), { once: true });
  rpc
    .notify('notifications/subscriptions/acknowledged', { _meta: { [MetaKey.subscriptionId]: rpc.id }, notifications: honoured })
    .catch(() => {});
}

/**
 * The tasks extension's part of a listen filter: `taskIds` (strings, at most 100) asks for `notifications/tasks`,
 * each carrying the task as `tasks/get` would return it, on every change of those tasks. Needs the extension on the
 * request (`-32021`) and a server that serves tasks (otherwise not acknowledged). Returns what starts following
 * (and returns the function that stops), or `undefined` when the stream follows no task.
 */
function taskFollower(
  requested: unknown,
  scope: RequestScope,
  rpc: ServerRequestContext,
  host: ListenHost,
  honoured: SubscriptionFilter,
): (() => () => void) | undefined {
  if (requested === undefined) return undefined;
  if (!hasCapability(scope.clientCapabilities, ['extensions', TASKS_EXTENSION])) throw extensionRequired('Task notifications');
  if (!Array.isArray(requested) || requested.length > MAX_TASK_IDS || !requested.every((id) => typeof id === 'string')) {
    throw invalidParams(`Invalid params: "taskIds" must be an array of at most ${MAX_TASK_IDS} strings`);
  }
  const tasks = host.tasks;
  if (tasks === undefined) return undefined;
  const ids = [...new Set(requested as string[])];
  (honoured as Record<string, unknown>).taskIds = ids;
  return () => {
    const stops = ids.map((taskId) =>
      tasks.manager.store.watch(taskId, (record) => {
        if (record.era !== 'modern' || record.owner !== undefined) return;
        const params = { ...modernTask(record, true), _meta: { [MetaKey.subscriptionId]: rpc.id } };
        (rpc.notify as (method: string, params: unknown) => Promise<void>)('notifications/tasks', params).catch(() => {});
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  };
}
