/**
 * The built-in request handlers, one per method the server serves, typed by the method maps of
 * `@wiremcp/protocol`: each entry's result is the era-neutral result of its method. Params arrive as they came
 * off the wire and each handler checks what it reads.
 */
import type { ClientRequestMethod, EraNeutralResult } from '@wiremcp/protocol';
import { RequestHandlerContext, type RequestScope } from './handler-context.js';
import type { InputRound } from './input-round.js';
import { setLogLevel, setSubscription, type LegacySessionState } from './legacy-session.js';
import { openListenStream, type ListenHost, type ListenOwner } from './listen-streams.js';
import type { PromptRegistry } from './prompt-registry.js';
import { ResourceNotFoundError, type ResourceRegistry } from './resource-registry.js';
import { resultForRevision } from './revision-content.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';
import type { ToolRegistry } from './tool-registry.js';

/** Where a request arrived: a connection (which can hold a legacy session) or a `dispatch` exchange (which cannot). */
export interface RequestOrigin {
  /** The legacy session of the connection, once `initialize` succeeded. */
  readonly session: LegacySessionState | undefined;
  /** The listen streams that end with this origin. */
  readonly listens: ListenOwner;
  /** Serves `initialize`: a connection opens its session, an exchange refuses. */
  initialize(params: WireParams, rpc: ServerRequestContext): EraNeutralResult<'initialize'>;
}

/** What the built-in handlers need from the server. */
export interface MethodHost extends ListenHost {
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  page<T>(kind: string, items: readonly T[], cursor: unknown): { page: T[]; nextCursor?: string };
  listResources(params: WireParams, context: RequestHandlerContext): Promise<EraNeutralResult<'resources/list'>>;
  complete(params: WireParams, rpc: ServerRequestContext, scope: RequestScope): Promise<EraNeutralResult<'completion/complete'>>;
  discover(): EraNeutralResult<'server/discover'>;
}

/** The methods with a built-in handler (`initialize` is the origin's; the 2025-11-25 tasks are not served). */
export type BuiltInMethod = Exclude<ClientRequestMethod, 'initialize' | `tasks/${string}`>;

/** One built-in handler. The legacy-only ones run only in a session (the router refuses them elsewhere). */
export type BuiltInHandler<M extends BuiltInMethod> = (
  params: WireParams,
  rpc: ServerRequestContext,
  scope: RequestScope,
  round: InputRound | undefined,
  origin: RequestOrigin,
) => Outcome<EraNeutralResult<M>>;

type Table = { readonly [M in BuiltInMethod]: BuiltInHandler<M> };

/** Untyped view of a handler, for lookup by a method name read off the wire. */
export type AnyBuiltInHandler = (
  params: WireParams,
  rpc: ServerRequestContext,
  scope: RequestScope,
  round: InputRound | undefined,
  origin: RequestOrigin,
) => Outcome<EraNeutralResult<BuiltInMethod>>;

/** A tool or prompt result adapted to an older revision's content blocks. */
function forRevision<T extends object>(outcome: Outcome<T>, version: string): Outcome<T> {
  if (version >= '2025-06-18') return outcome;
  return outcome instanceof Promise ? outcome.then((result) => resultForRevision(result, version)) : resultForRevision(outcome, version);
}

/** The session of a legacy-only method (the router serves those only within one). */
function sessionOf(origin: RequestOrigin): LegacySessionState {
  const session = origin.session;
  if (!session) throw new Error('a legacy-only method was routed without a session');
  return session;
}

/** `resources/read`, with a missing resource answered in the era's code (`-32002` legacy, `-32602` modern). */
function read(host: MethodHost, params: WireParams, context: RequestHandlerContext): Outcome<EraNeutralResult<'resources/read'>> {
  const era = context.era;
  const rethrow = (error: unknown): never => {
    throw error instanceof ResourceNotFoundError ? error.toRpcError(era) : error;
  };
  try {
    const outcome = host.resources.read(params, context);
    return outcome instanceof Promise ? outcome.catch(rethrow) : outcome;
  } catch (error) {
    return rethrow(error);
  }
}

/** Builds the table of a server (once per server: the handlers close over it, not over a request). */
export function createMethodTable(host: MethodHost): ReadonlyMap<string, AnyBuiltInHandler> {
  const list = <K extends string, T>(kind: string, key: K, items: readonly T[], cursor: unknown) => {
    const { page, nextCursor } = host.page(kind, items, cursor);
    return (nextCursor === undefined ? { [key]: page } : { [key]: page, nextCursor }) as { [P in K]: T[] } & { nextCursor?: string };
  };
  const table: Table = {
    'tools/call': (params, rpc, scope, round, origin) =>
      (host.tasks?.callTool(params, rpc, scope, round, origin.session) as Outcome<EraNeutralResult<'tools/call'>> | undefined) ??
      forRevision(host.tools.call(params, new RequestHandlerContext(rpc, scope, round)), scope.protocolVersion),
    'tools/list': (params) => list('tools', 'tools', host.tools.list(), params?.cursor),
    'resources/read': (params, rpc, scope, round) => read(host, params, new RequestHandlerContext(rpc, scope, round)),
    'resources/list': (params, rpc, scope, round) => host.listResources(params, new RequestHandlerContext(rpc, scope, round)),
    'resources/templates/list': (params) => list('templates', 'resourceTemplates', host.resources.listTemplates(), params?.cursor),
    'prompts/get': (params, rpc, scope, round) =>
      forRevision(host.prompts.get(params, new RequestHandlerContext(rpc, scope, round)), scope.protocolVersion),
    'prompts/list': (params) => list('prompts', 'prompts', host.prompts.list(), params?.cursor),
    'completion/complete': (params, rpc, scope) => host.complete(params, rpc, scope),
    'server/discover': () => host.discover(),
    'subscriptions/listen': (params, rpc, scope, _round, origin) => openListenStream(params, scope, rpc, host, origin.listens),
    ping: () => ({}),
    'logging/setLevel': (params, _rpc, _scope, _round, origin) => setLogLevel(params, sessionOf(origin)),
    'resources/subscribe': (params, rpc, scope, round, origin) =>
      setSubscription(params, sessionOf(origin), true, new RequestHandlerContext(rpc, scope, round)),
    'resources/unsubscribe': (params, rpc, scope, round, origin) =>
      setSubscription(params, sessionOf(origin), false, new RequestHandlerContext(rpc, scope, round)),
  };
  return new Map(Object.entries(table) as Array<[string, AnyBuiltInHandler]>);
}
