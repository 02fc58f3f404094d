import { LocalError, type LogLevel, type RpcResponse } from '@wiremcp/protocol';
import { Peer, type MessageInfo, type Transport } from '@wiremcp/jsonrpc';
import { dispatch, statelessOrigin, type DispatchExchange } from './dispatch.js';
import type { LegacySessionRestore } from './legacy-session.js';
import type { Middleware } from './middleware.js';
import type { RequestOrigin } from './method-table.js';
import type { TypedSchema } from '@wiremcp/json-schema';
import type { PromptHandler, PromptOptions, RegisteredPrompt } from './prompt-registry.js';
import type { HandlerContext } from './handler-context.js';
import type {
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceOptions,
  ResourceReader,
  TemplateOptions,
  TemplateReader,
} from './resource-registry.js';
import { Connection, type ConnectionEvents, type ServerConnection } from './server-connection.js';
import { ServerCore } from './server-core.js';
import type { CustomRequestHandler, ServerOptions } from './server-options.js';
import type { ServerPeer } from './server-peer.js';
import type { ServerEvent, ServerEventRelay } from './server-events.js';
import type { TaskOrigin } from './task-service.js';
import type { RegisteredTool } from './tool-registry.js';
import type { PromptArgs, PromptConfig } from './typed-prompt.js';
import type { TemplateConfig, TemplateReaderVariables, TemplateSchemaOption } from './typed-template.js';
import type { ArgsCheck, ParamCheck, ToolArgs, ToolConfig, ToolHandler, ToolResultOf, ToolStructured } from './typed-tool.js';
import type { Implementation, ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from './types.js';

/** Options of `McpServer.connect`. */
export interface ConnectOptions {
  /** Start the connection with this legacy session already open (see `connect`). */
  readonly restore?: LegacySessionRestore;
  /**
   * While this returns true, the connection's legacy session also hears the list changes and resource updates other
   * processes raised (delivered through {@link McpServer.relayEvents}): what a transport says while it holds the
   * stream they go to (an HTTP session's standalone GET stream, held by one of the processes sharing the session),
   * so that each event reaches the session once, from that process. Default: never.
   */
  readonly relayed?: () => boolean;
  /**
   * Waited for by `close` (the connection's, or the server's) before the transport is closed, so that the session
   * keeps hearing events meanwhile: what an HTTP session of a draining process gives while it hands its standalone
   * stream over to another process. It must settle within the grace period on its own.
   */
  readonly holdClose?: () => Promise<void>;
}

/**
 * An MCP server: a registry of tools, resources, prompts and completions that serves both protocol eras —
 * legacy clients through `initialize`, 2026-07-28 clients statelessly, per request.
 *
 * Two ways to serve it, sharing the registries, compiled schemas, caches and server-wide notifications:
 * - `connect(transport)` serves a connection (stdio, or one legacy HTTP session): a JSON-RPC peer that holds the
 *   legacy session `initialize` opens, and serves 2026-07-28 requests on the same connection;
 * - `dispatch(message, exchange)` serves one message with no connection at all (a stateless 2026-07-28 HTTP POST).
 */
export class McpServer {
  /** Who the server is (`serverInfo`). */
  readonly info: Implementation;
  /** Called when a legacy client sent `notifications/initialized`. */
  oninitialized: ((connection: ServerConnection) => void) | undefined;
  /** Called when a legacy client sent `notifications/roots/list_changed`. */
  onrootslistchanged: ((connection: ServerConnection) => void) | undefined;
  /** Called when a connection's transport closed (the client went away, or the connection was closed). */
  onconnectionclosed: ((connection: ServerConnection) => void) | undefined;

  readonly #core: ServerCore;
  readonly #connections = new Set<ServerConnection>();
  readonly #events: ConnectionEvents = {
    initialized: (connection) => this.oninitialized?.(connection),
    rootsListChanged: (connection) => this.onrootslistchanged?.(connection),
    closed: (connection) => {
      this.#connections.delete(connection);
      this.onconnectionclosed?.(connection);
    },
  };
  readonly #stateless: RequestOrigin;

  constructor(info: Implementation, options: ServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info.version !== 'string') {
      throw new LocalError('INVALID_ARGUMENT', 'McpServer needs serverInfo with a name and a version');
    }
    const versions = ServerCore.versionsOf(options);
    if (versions.length === 0) throw new LocalError('INVALID_ARGUMENT', 'McpServer needs at least one protocol version');
    this.info = info;
    this.#core = new ServerCore(info, options, versions);
    this.#stateless = statelessOrigin(this.#core.modernVersions);
  }

  /** Instructions for the model. */
  get instructions(): string | undefined {
    return this.#core.instructions;
  }

  /** The connections currently served. */
  get connections(): ReadonlySet<ServerConnection> {
    return this.#connections;
  }

  /**
   * Registers a tool. `inputSchema` and `outputSchema` are JSON Schema — written as literals, they give the
   * handler's argument and `structuredContent` types — or Standard Schema validators (zod, valibot, ArkType…),
   * listed as JSON Schema and run by their own `validate`: the handler gets what it returns (defaults,
   * transforms). An annotated handler parameter must accept what the schema lets through. Throws
   * `INVALID_ARGUMENT` for a bad definition, a duplicate name, or a Standard Schema without JSON Schema (see the
   * `toJsonSchema` option).
   */
  registerTool<const D extends ToolConfig, Args = ToolArgs<D>>(
    definition: D,
    handler: ToolHandler<Args, ToolResultOf<ToolStructured<D>>> & ArgsCheck<D, Args>,
  ): RegisteredTool {
    return this.#core.tools.register(definition, handler as ToolHandler<never, unknown>);
  }

  /**
   * The definition of an enabled tool (what `tools/list` shows of it), or `undefined`. Transports read it to check
   * what the client mirrors of a call's arguments (the 2026-07-28 `x-mcp-header` annotations).
   */
  tool(name: string): ToolDefinition | undefined {
    return this.#core.tools.get(name);
  }

  /**
   * Registers a fixed resource, with an optional caching hint for its 2026-07-28 reads (`options.cache`). Throws
   * `INVALID_ARGUMENT` for a duplicate URI or a bad hint. The handle updates its listing entry in place.
   */
  registerResource(definition: ResourceDefinition, read: ResourceReader, options?: ResourceOptions): RegisteredResource {
    return this.#core.resources.register(definition, read, options);
  }

  /**
   * Registers an RFC 6570 resource template, with optional variable completion, listing (`list`, given the
   * `resources/list` request's context) and caching hints (`cache` for reads, `listCache` for the list).
   */
  registerResourceTemplate<
    const D extends TemplateConfig,
    const S extends TypedSchema | undefined = undefined,
    V = TemplateReaderVariables<D, S>,
  >(
    definition: D,
    read: TemplateReader<V> & ParamCheck<TemplateReaderVariables<D, S>, V, 'the reader variables do not match the template'>,
    options?: TemplateOptions & TemplateSchemaOption<S>,
  ): RegisteredResourceTemplate {
    return this.#core.resources.registerTemplate(definition as ResourceTemplateDefinition, read as TemplateReader<never>, options);
  }

  /**
   * Reads one of this server's own resources from inside a handler (to embed it, or to build on it): the fixed
   * resource or the first template that matches, called with the handler's `context`; the result has no caching
   * hints. Rejects with {@link ResourceNotFoundError} when nothing serves `uri`.
   */
  async readResource(uri: string, context: HandlerContext): Promise<ReadResourceResult> {
    return this.#core.resources.readForHandler(uri, context);
  }

  /**
   * Registers a prompt, with optional argument completion. The handler's arguments follow from a literal
   * `arguments` list, or from an `argsSchema` (a Standard Schema or a JSON Schema literal of an object) that the
   * server lists as `arguments` and runs on every `prompts/get`.
   */
  registerPrompt<const D extends PromptConfig, Args = PromptArgs<D>>(
    definition: D,
    handler: PromptHandler<Args> & ParamCheck<PromptArgs<D>, Args, 'the handler arguments do not match the prompt arguments'>,
    options?: PromptOptions,
  ): RegisteredPrompt {
    return this.#core.prompts.register(definition, handler as PromptHandler<never>, options);
  }

  /**
   * Serves `method` with `handler` instead of the built-in handling, or adds a method. The handler runs after the
   * era checks (a 2026-07-28 request's `_meta` is checked, its result stamped), with the context a tool handler
   * gets. For a method of the spec, params and result are typed from the spec (`params` as either era sends
   * them; `resultType` and the caching hints are the server's to add); for any other method, JSON objects.
   */
  setRequestHandler<M extends string>(method: M, handler: CustomRequestHandler<M>): void {
    this.#core.custom.set(method, handler as unknown as CustomRequestHandler);
  }

  /**
   * Installs a middleware around every request the server serves (lists, calls, reads, prompts, completion, tasks,
   * subscriptions, `initialize`), on every connection and `dispatch`, including requests already being received.
   * The first installed runs outermost. It runs after the era checks (a bad 2026-07-28 envelope and a legacy request
   * without a session are refused before it) and before custom handlers, capability gates and built-in handlers; a
   * 2026-07-28 result it returns is still stamped with the server's `_meta`. See {@link Middleware} for answering,
   * rewriting and refusing, and the package README for ordering and errors. Throws `INVALID_ARGUMENT` for a
   * non-function.
   */
  use(middleware: Middleware): this {
    if (typeof middleware !== 'function') throw new LocalError('INVALID_ARGUMENT', 'use() needs a middleware function');
    this.#core.requestRouter.use(middleware);
    return this;
  }

  /**
   * Declares an extension (`capabilities.extensions[id] = settings`) in every revision's capabilities, for
   * extensions served through custom handlers (Skills, MCP Apps). Sessions already initialised keep the
   * capabilities they were given; later handshakes and 2026-07-28 requests see the new ones. Calling it again for
   * the same `id` replaces its settings.
   */
  declareExtension(id: string, settings: Readonly<Record<string, unknown>> = {}): void {
    if (typeof id !== 'string' || id === '') throw new LocalError('INVALID_ARGUMENT', 'declareExtension needs an extension identifier');
    this.#core.declareExtension(id, settings);
  }

  /**
   * Serves a transport: one connection, with its own legacy session. Resolves once the transport is started.
   * With `options.restore`, the connection starts with that legacy session already open — a session recorded by
   * another process (an HTTP session store shared behind a load balancer), served here without a new handshake;
   * throws `INVALID_ARGUMENT` when its revision is not one this server speaks.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerConnection> {
    const core = this.#core;
    const peer: ServerPeer = new Peer({ requestTimeoutMs: core.options.clientRequestTimeoutMs ?? 600_000, onInternalError: core.report });
    const connection = new Connection(core, this.#events, peer, options);
    this.#connections.add(connection);
    try {
      await connection.start(transport);
    } catch (error) {
      this.#connections.delete(connection);
      throw error;
    }
    return connection;
  }

  /**
   * Serves one inbound JSON-RPC message without a connection: what a stateless transport calls per message
   * (2026-07-28 Streamable HTTP calls it per POST). Resolves with the answer: the response to a request, an error
   * response (`-32600` for a broken envelope or a batch, `-32601`, `-32602`, `-32021`, `-32022`, exactly as on a
   * connection; `-32020`, headers not matching the body, is the transport's to check), or `undefined` for a
   * notification, a response, or a request whose exchange was aborted.
   *
   * - Notifications related to the request — progress, `notifications/message` when the request's `_meta` asked
   *   for a log level, a listen stream's acknowledgement and notifications — go to `exchange.notify`, in order,
   *   before the answer resolves.
   * - `exchange.signal` aborting is cancellation: the handler's `ctx.signal` aborts, nothing more is sent, and the
   *   promise resolves with `undefined` at once; `exchange.cancellable` is the same without an `AbortSignal`.
   * - `subscriptions/listen` stays open, receiving the server-wide list changes and resource updates, until the
   *   signal aborts (the stream is gone: `undefined`) or `close()` ends it (`notifications/cancelled` for it, then
   *   its response).
   * - A request needs the 2026-07-28 `_meta`: no legacy session can be held, so `initialize` is answered `-32022`
   *   naming the modern revisions, and other legacy requests (`ping` excepted) `-32602` (serve legacy clients
   *   with `connect`, one transport per session).
   */
  dispatch(message: unknown, exchange: DispatchExchange): Promise<RpcResponse | undefined> {
    return dispatch(this.#core, this.#stateless, message, exchange);
  }

  /**
   * Ends every listen stream (each gets `notifications/cancelled`, then its response), then closes every
   * connection, waiting up to `graceMs` (default 1 000) for requests in progress.
   */
  async close(graceMs?: number): Promise<void> {
    this.#core.subscribers.endAll('the server is closing');
    await Promise.all([...this.#connections].map((connection) => connection.close(graceMs)));
  }

  /**
   * Tells clients that the resource list changed, for changes the server cannot see itself (what a template's
   * `list` callback returns). Registering, updating and removing announce themselves. Several announcements within
   * one tick become one notification per list, as the registries' own do.
   */
  notifyResourceListChanged(): void {
    this.#core.subscribers.listChanged('resources');
  }

  /** Tells clients that the tool list changed (see {@link notifyResourceListChanged}). */
  notifyToolListChanged(): void {
    this.#core.subscribers.listChanged('tools');
  }

  /** Tells clients that the prompt list changed (see {@link notifyResourceListChanged}). */
  notifyPromptListChanged(): void {
    this.#core.subscribers.listChanged('prompts');
  }

  /** Tells subscribers (legacy `resources/subscribe`, 2026-07-28 listen streams) that `uri` changed. */
  notifyResourceUpdated(uri: string): void {
    this.#core.subscribers.resourceUpdated(uri);
  }

  /**
   * Relays server-wide events between the processes of a deployment (what an HTTP handler with a `bus` does):
   * `publish` receives every list change and resource update raised in this process (it must not throw: hand the
   * event over and report failures elsewhere); the returned relay's `deliver` takes the events other processes
   * published and passes them to this process's 2026-07-28 listen streams, each filtering and stamping as it
   * asked. Repeats (an event heard back, or published through two relays) are dropped by the event's id.
   */
  relayEvents(publish: (event: ServerEvent) => void): ServerEventRelay {
    return this.#core.subscribers.relay(publish);
  }

  /**
   * The operation that created a task (its method, and the tool it called), when the caller `info` describes may
   * see the task in `era`: a legacy session's tasks are its own (`info.sessionId`, `info.principalKey`), a 2026-07-28
   * task anyone's who has its id. Transports authorize a task's follow-ups against that operation too; `undefined`
   * for a task unknown, expired or not the caller's, and when the server serves no tasks.
   */
  taskOrigin(taskId: string, era: 'legacy' | 'modern', info: MessageInfo): Promise<TaskOrigin | undefined> {
    return this.#core.tasks?.origin(taskId, era, info) ?? Promise.resolve(undefined);
  }

  /** Sends a log message to every legacy session that wants its level (not tied to a request). */
  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#core.subscribers.log(level, data, logger);
  }
}
