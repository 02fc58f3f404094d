import type {
  CacheableMethod,
  ClientRequestMethod,
  EraNeutralParams,
  EraNeutralResult,
  JsonObject,
  ProtocolVersion,
} from '@wiremcp/protocol';
import type { JsonSchemaConverter, SchemaCompiler } from '@wiremcp/json-schema';
import type { Instrumentation } from '@wiremcp/jsonrpc';
import type { CapabilityOptions } from './capabilities.js';
import type { HandlerContext } from './handler-context.js';
import type { RequestStateOptions } from './request-state.js';
import type { ResourceListOrder } from './resource-registry.js';
import type { SubscriptionHooks } from './subscription-hooks.js';
import type { TaskOptions } from './task-manager.js';
import type { CacheHint } from './types.js';

/** The lists a server pages (`resourceTemplates` is `resources/templates/list`). */
export type PagedList = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** Options of {@link McpServer}. */
export interface ServerOptions extends SubscriptionHooks {
  /** Instructions for the model, sent in the initialize and discover results. */
  instructions?: string;
  /** Capabilities to force; the rest is derived from what is registered. */
  capabilities?: CapabilityOptions;
  /** Revisions this server speaks (default: every revision wiremcp implements). */
  protocolVersions?: readonly ProtocolVersion[];
  /** Items per page: of every list, or per list with a `default` for the others (default 100). Integers ≥ 1. */
  pageSize?: number | Partial<Record<PagedList | 'default', number>>;
  /**
   * Where `resources/list` puts the resources that templates list (their `list` callbacks): `direct-first` (the
   * default) after every fixed resource, in template order; `registration` at the place each template was
   * registered among the fixed resources.
   */
  resourceListOrder?: ResourceListOrder;
  /** Caching hints of 2026-07-28 results, per method or as a default (default `{ttlMs: 0, cacheScope: 'public'}`). */
  caching?: Partial<Record<CacheableMethod | 'default', CacheHint>>;
  /** Key and lifetime of input-required `requestState` (default: a random key per process, 10 minutes). */
  requestState?: RequestStateOptions;
  /** Timeout of requests the server sends the client (sampling, elicitation, roots), in ms (default 10 minutes). */
  clientRequestTimeoutMs?: number;
  /** Receives internal errors (their text is never sent to clients). Default: `console.error` (stderr). */
  onInternalError?: (error: unknown) => void;
  /**
   * Tasks (2025-11-25 `tasks/*`, the 2026-07-28 `io.modelcontextprotocol/tasks` extension): the store, TTLs,
   * polling interval and page size. Tasks are served once a tool declares `execution.taskSupport`, or when this
   * is set; the default store keeps at most 1000 tasks in memory.
   */
  tasks?: TaskOptions;
  /** The JSON Schema compiler used for tool schemas (default: a lazily loaded ajv). */
  schemaCompiler?: SchemaCompiler;
  /**
   * Turns a Standard Schema (a tool's `inputSchema`/`outputSchema`, a prompt's `argsSchema`) into JSON Schema when
   * the library has no `~standard.jsonSchema` of its own — e.g. valibot: `(schema) => toJsonSchema(schema)` from
   * `@valibot/to-json-schema`. zod ≥ 4.2 and ArkType ≥ 2.1.28 need none.
   */
  toJsonSchema?: JsonSchemaConverter;
  /**
   * Observes every request the server serves and every notification it receives (tracing, metrics; see
   * `@wiremcp/otel`). Its failures are reported to `onInternalError` and never change an answer.
   */
  instrumentation?: Instrumentation;
}

/**
 * The params a custom handler of `M` receives: for a method of the spec, its params as either era sends them
 * (the 2026-07-28 shape, `_meta` optional); for any other method, a JSON object. They are the client's, checked by
 * the server only as far as the envelope goes: check what you rely on.
 */
export type RequestHandlerParams<M extends string> = M extends ClientRequestMethod ? EraNeutralParams<M> : JsonObject | undefined;

/**
 * What a custom handler of `M` returns: for a method of the spec, its result without the keys the server stamps
 * on 2026-07-28 results (`resultType`, `ttlMs`, `cacheScope` are optional); for any other method, a JSON object.
 */
export type RequestHandlerResult<M extends string> = M extends ClientRequestMethod ? EraNeutralResult<M> : JsonObject;

/** Handles a request method itself, bypassing (or extending) the built-in handling; see `McpServer.setRequestHandler`. */
export type CustomRequestHandler<M extends string = string> = (
  params: RequestHandlerParams<M>,
  context: HandlerContext,
) => RequestHandlerResult<M> | Promise<RequestHandlerResult<M>>;
