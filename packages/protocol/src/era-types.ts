/**
 * Era-neutral views of the generated method maps: the shapes an SDK reads and writes when one code path serves
 * every revision.
 *
 * The maps (`ClientRequestMap`, …) carry the 2026-07-28 wire shapes, in which every request has a `_meta` with the
 * reserved per-request keys and every result a `resultType` (and, when cacheable, `ttlMs` and `cacheScope`). A
 * legacy request carries none of these and a server author writes none of them (the server adds them), so the
 * views below make exactly those keys optional. They are computed from the generated types, never re-declared:
 * a new revision changes them by regenerating the maps.
 */
import type { CacheableResult, InputRequiredResult, Spec2025_11_25, Spec2026_07_28 } from './generated/index.js';
import type { ClientRequestMap, ClientRequestMethod, RequestMethod, RequestParamsOf, RequestResultOf } from './method-types.js';

/** Flattens an intersection for readable hovers and errors. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * `T` with the keys `K` made optional. Distributes over unions and keeps index signatures and every other key as
 * it was (unlike `Omit`, which collapses the known keys of a type with an index signature).
 */
export type WithOptionalKeys<T, K extends PropertyKey> = T extends unknown
  ? Simplify<{ [P in keyof T as P extends K ? never : P]: T[P] } & { [P in keyof T as P extends K ? P : never]?: T[P] }>
  : never;

/** `T` without the keys `K`, distributed over unions, index signatures kept. */
export type WithoutKeys<T, K extends PropertyKey> = T extends unknown ? { [P in keyof T as P extends K ? never : P]: T[P] } : never;

/**
 * The members of `T` that are not exactly `U`. `Exclude` tests assignability, which is wrong for result types:
 * a `CallToolResult` is assignable to `InputRequiredResult` (whose only required key is `resultType`).
 */
export type ExcludeExactly<T, U> = T extends unknown ? ([U] extends [T] ? ([T] extends [U] ? never : T) : T) : never;

/** Result keys a 2026-07-28 server adds to every (cacheable) result and older revisions lack. */
export type ServerStampedResultKey = 'resultType' | 'ttlMs' | 'cacheScope';

/**
 * The params of request `M` as either era carries them: the 2026-07-28 shape with `_meta` optional (a legacy
 * request has no reserved per-request keys; a client SDK adds them itself). `undefined` where params may be
 * omitted.
 */
export type EraNeutralParams<M extends RequestMethod> =
  WithOptionalKeys<NonNullable<RequestParamsOf<M>>, '_meta'> | (undefined extends RequestParamsOf<M> ? undefined : never);

/**
 * The result of request `M` as either era carries it: `resultType`, `ttlMs` and `cacheScope` optional (legacy
 * results have none; a server author never writes them, the server stamps them on 2026-07-28 results). Includes
 * the `InputRequiredResult` of the MRTR methods and the `CreateTaskResult` of task-augmentable ones.
 */
export type EraNeutralResult<M extends RequestMethod> = WithOptionalKeys<RequestResultOf<M>, ServerStampedResultKey>;

/**
 * The complete result of request `M` in either era: {@link EraNeutralResult} without `InputRequiredResult` (a
 * client resolves input rounds itself) and without the 2025-11-25 `CreateTaskResult`.
 */
export type CompleteResultOf<M extends RequestMethod> = WithOptionalKeys<
  ExcludeExactly<ExcludeExactly<RequestResultOf<M>, InputRequiredResult>, Spec2025_11_25.CreateTaskResult>,
  ServerStampedResultKey
>;

/** True when one member of the union `T` is exactly `U`. */
type HasExactMember<T, U> = true extends (T extends unknown ? ([U] extends [T] ? ([T] extends [U] ? true : false) : false) : never)
  ? true
  : false;

/** Client requests whose 2026-07-28 answer may be an `InputRequiredResult` (computed from the map's result types). */
export type InputRequiredMethod = {
  [M in ClientRequestMethod]: HasExactMember<ClientRequestMap[M]['result'], InputRequiredResult> extends true ? M : never;
}[ClientRequestMethod];

/** Client requests whose complete 2026-07-28 result is a `CacheableResult` (`ttlMs`, `cacheScope`). */
export type CacheableMethod = {
  [M in ClientRequestMethod]: ExcludeExactly<ClientRequestMap[M]['result'], InputRequiredResult> extends CacheableResult ? M : never;
}[ClientRequestMethod];

/**
 * What a server may need from the client while it handles a request: a legacy server→client request, or a
 * 2026-07-28 input request inside an `InputRequiredResult`. Params and results are the unions of the two
 * revisions that define them (2025-11-25 and 2026-07-28), without the 2025-11-25 task augmentation.
 */
export interface InputRequestMap {
  'elicitation/create': {
    params: Spec2026_07_28.ElicitRequestParams | WithoutKeys<Spec2025_11_25.ElicitRequestParams, 'task'>;
    result: Spec2026_07_28.ElicitResult | Spec2025_11_25.ElicitResult;
  };
  'sampling/createMessage': {
    params: Spec2026_07_28.CreateMessageRequestParams | WithoutKeys<Spec2025_11_25.CreateMessageRequestParams, 'task'>;
    result: Spec2026_07_28.CreateMessageResult | Spec2025_11_25.CreateMessageResult;
  };
  'roots/list': {
    params: NonNullable<Spec2026_07_28.ListRootsRequest['params']> | NonNullable<Spec2025_11_25.ListRootsRequest['params']>;
    result: Spec2026_07_28.ListRootsResult | Spec2025_11_25.ListRootsResult;
  };
}

/** A kind of input a server can ask the client for. */
export type InputRequestMethod = keyof InputRequestMap;

/** The params of input request `M`. */
export type InputParamsOf<M extends InputRequestMethod> = InputRequestMap[M]['params'];

/** The answer to input request `M`. */
export type InputResultOf<M extends InputRequestMethod> = InputRequestMap[M]['result'];
