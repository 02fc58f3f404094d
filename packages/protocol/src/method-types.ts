/**
 * Type-level method maps: method name -> params and result types, one map per sender, for handler and request
 * inference (`server.setRequestHandler('tools/call', (params, ctx) => …)`).
 *
 * The maps are generated from the same schema data as the runtime table (src/generated/method-maps.ts): types
 * are those of 2026-07-28 where the method exists there, otherwise those of the newest revision that has it
 * (2025-11-25 for `initialize`, `ping`, `sampling/createMessage`, the tasks methods, …). Methods that go both
 * ways (`ping`, `notifications/cancelled`, `notifications/progress`, the 2025-11-25 tasks methods) are in both
 * maps of their kind.
 */
import type { ClientNotificationMap, ClientRequestMap, ServerNotificationMap, ServerRequestMap } from './generated/method-maps.js';

export type { ClientNotificationMap, ClientRequestMap, ServerNotificationMap, ServerRequestMap };

/** A request method a client sends (and a server handles). */
export type ClientRequestMethod = keyof ClientRequestMap;

/** A request method a server sends (and a client handles); legacy revisions only. */
export type ServerRequestMethod = keyof ServerRequestMap;

/** A notification method a client sends. */
export type ClientNotificationMethod = keyof ClientNotificationMap;

/** A notification method a server sends. */
export type ServerNotificationMethod = keyof ServerNotificationMap;

/** Every request, whoever sends it: method -> `{params, result}`. */
export type RequestMap = ClientRequestMap & ServerRequestMap;

/** Every notification, whoever sends it: method -> params. */
export type NotificationMap = ClientNotificationMap & ServerNotificationMap;

/** Any request method of any revision. */
export type RequestMethod = keyof RequestMap;

/** Any notification method of any revision. */
export type NotificationMethod = keyof NotificationMap;

/** The params of request `M` (includes `undefined` where the spec lets params be omitted). */
export type RequestParamsOf<M extends RequestMethod> = RequestMap[M]['params'];

/**
 * The result of request `M`: for 2026 MRTR methods (`tools/call`, `prompts/get`, `resources/read`) the union with
 * `InputRequiredResult`; for 2025-11-25 task-augmentable ones (`sampling/createMessage`, `elicitation/create`) the
 * union with `CreateTaskResult`.
 */
export type RequestResultOf<M extends RequestMethod> = RequestMap[M]['result'];

/** The params of notification `M`. */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M];
