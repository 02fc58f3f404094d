/**
 * `McpClient`: a typed MCP client for both eras over any {@link Transport}, or over the transports a factory makes.
 */
import {
  INPUT_REQUIRED_METHODS,
  isLogLevel,
  LocalError,
  quoteInput,
  type ClientNotificationMap,
  type Era,
  type JsonObject,
  type LogLevel,
} from '@wiremcp/protocol';
import type { Transport } from '@wiremcp/jsonrpc';
import { openSession } from './connector.js';
import { MemoryEraCache, type EraCache } from './era-cache.js';
import type { ListenOptions, ListenSubscription } from './listen.js';
import type { ListenerHandle } from './listener-handle.js';
import type { NotificationListener, ParamsOf, ServerNotification } from './notification-hub.js';
import { NotificationRouter } from './notification-router.js';
import type { CallOptions, ClientOptions, ListOptions } from './options.js';
import { OutputValidator } from './output-validator.js';
import { ClientTasks } from './client-tasks.js';
import { CurrentSession } from './current-session.js';
import { ListReader } from './list-reader.js';
import { ResultCache } from './result-cache.js';
import type { Session } from './session.js';
import { resolveSettings, type ClientSettings } from './settings.js';
import { rootsChanged, setLevel } from './session-notices.js';
import { StructuredOutput, type TypedCallOptions, type TypedCallToolResult } from './typed-call.js';
import type { SchemaOutput, TypedSchema } from '@wiremcp/json-schema';
import type { TransportFactory } from './transport-link.js';
import type {
  CallToolResult,
  ClientCapabilities,
  ClientPeer,
  ClientRequestParams,
  ClientRequestResult,
  CompleteParams,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingMessageParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceUpdatedParams,
  ResultOf,
  ServerCapabilities,
  SubscriptionFilter,
  Tool,
} from './types.js';

/** Options of {@link McpClient.connect}. */
export interface ConnectOptions {
  /** Identifies the server in the era cache for this connection (overrides the client's `serverKey`). */
  serverKey?: string;
}

/**
 * An MCP client. `connect` detects the era (or uses the one configured), then the typed methods work the same in
 * both eras wherever the protocol allows. Every failure is an `RpcError` (the server answered with an error; code,
 * message and data intact) or a `LocalError` with a precise code.
 */
export class McpClient implements AsyncDisposable {
  /** Who this client is (`clientInfo`). */
  readonly clientInfo: Implementation;
  /** Tool calls as tasks, both eras: start, poll, answer, cancel, await. */
  readonly tasks = new ClientTasks((method, run) => this.#call(method, run));
  readonly #settings: ClientSettings;
  readonly #options: ClientOptions;
  readonly #report: (error: unknown) => void;
  readonly #router: NotificationRouter;
  readonly #validator: OutputValidator;
  readonly #structured: StructuredOutput;
  readonly #cache = new ResultCache();
  readonly #lists: ListReader;
  readonly #eraCache: EraCache;
  readonly #current: CurrentSession;
  #connecting: ClientPeer | undefined;
  readonly #listAllTools = (): Promise<Tool[]> => this.listAllTools();
  #logLevel: LogLevel | undefined;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.#settings = resolveSettings(clientInfo, options);
    this.clientInfo = clientInfo;
    this.#options = options;
    this.#report = options.onError ?? ((error) => console.error('[wiremcp client]', error));
    // Per client unless one is shared on purpose: no hidden process-wide state.
    this.#eraCache = options.eraCache ?? new MemoryEraCache();
    this.#validator = new OutputValidator(options.schemaCompiler);
    this.#structured = new StructuredOutput(options.schemaCompiler);
    this.#current = new CurrentSession(this.#report);
    this.#lists = new ListReader(
      this.#cache,
      this.#settings,
      (method, run) => this.#call(method, run),
      () => this.#current.session?.era,
    );
    this.#router = new NotificationRouter(
      () => this.#current.session,
      (method, params) => {
        if (method === 'notifications/tools/list_changed') this.#validator.reset();
        this.#cache.invalidate(method, params);
      },
      this.#report,
    );
  }

  /** The era of the current connection (`undefined` when not connected). */
  get era(): Era | undefined {
    return this.#current.session?.era;
  }
  /** The negotiated protocol version. */
  get protocolVersion(): string | undefined {
    return this.#current.session?.protocolVersion;
  }
  /** The server's capabilities (from initialize, or from discover in the modern era). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#current.session?.serverCapabilities;
  }
  /** The server's self-reported identity. */
  get serverInfo(): Implementation | undefined {
    return this.#current.session?.serverInfo;
  }
  /** The server's instructions for the model. */
  get instructions(): string | undefined {
    return this.#current.session?.instructions;
  }
  /** The capabilities this client declares on the current connection. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#current.session?.clientCapabilities;
  }
  /** True while connected and negotiated. */
  get connected(): boolean {
    return this.#current.session !== undefined;
  }

  /**
   * Connects and negotiates: era detection per the `era` option (and the era cache), then `initialize` (legacy)
   * or `server/discover` (modern). Takes a transport, or a {@link TransportFactory} making the transport of each
   * attempt (HTTP: a 2026-07-28 POST, then a legacy session, then HTTP+SSE). On failure the transport is closed and
   * the error rethrown (`UNSUPPORTED_PROTOCOL_VERSION`, `SERVER_EXITED`, an RpcError…).
   */
  async connect(transport: Transport | TransportFactory, options: ConnectOptions = {}): Promise<void> {
    if (this.#current.session || this.#connecting)
      throw new LocalError('ALREADY_CONNECTED', 'This client is already connected; close it first');
    const host = {
      settings: this.#settings,
      report: this.#report,
      onError: this.#options.onError,
      eraCache: this.#eraCache,
      router: this.#router,
      logLevel: this.#logLevel,
      closed: (session: Session) => {
        this.#current.closed(session);
        this.#router.reset();
      },
    };
    try {
      const session = await openSession(transport, options.serverKey ?? this.#options.serverKey, host, (peer) => (this.#connecting = peer));
      this.#current.open(session);
      this.#validator.reset();
      this.#cache.clear();
    } finally {
      this.#connecting = undefined;
    }
    // Listeners registered before connecting get their (modern) stream now; a refusal is reported, not fatal.
    await this.#router.start().catch(this.#report);
  }

  /** Legacy `ping`. */
  ping(options?: CallOptions): Promise<ResultOf<'ping'>> {
    return this.#call('ping', (s) =>
      s.era === 'modern' ? Promise.reject(s.wrongEra('ping', 'use discover()')) : s.request('ping', undefined, options),
    );
  }

  /** Modern `server/discover`; refreshes `serverCapabilities`, `serverInfo` and `instructions`. */
  discover(options?: CallOptions): Promise<DiscoverResult> {
    return this.#call('server/discover', (s) => {
      if (s.era === 'legacy') return Promise.reject(s.wrongEra('server/discover', 'the initialize result is the legacy equivalent'));
      return s.request('server/discover', undefined, options).then((result) => (s.applyDiscover(result), result));
    });
  }

  /** One page of `tools/list`; remembers the tools for output validation. */
  listTools(params: { cursor?: string } = {}, options?: ListOptions): Promise<ListToolsResult> {
    return this.#lists.page('tools/list', params.cursor, options).then((result: ListToolsResult) => {
      if (Array.isArray(result.tools))
        this.#validator.remember(result.tools, params.cursor === undefined && result.nextCursor === undefined);
      return result;
    });
  }

  /** Every tool, following cursors (bounded by `maxPages`). */
  async listAllTools(options?: ListOptions): Promise<Tool[]> {
    const tools = await this.#lists.all('tools/list', (page: ListToolsResult): Tool[] => page.tools, options);
    this.#validator.remember(tools, true);
    return tools;
  }

  /**
   * Calls a tool. Modern: input-required rounds are served by the handlers transparently. The result's
   * `structuredContent` is validated against the tool's `outputSchema` (`INVALID_RESULT` on mismatch) — or, with
   * `options.outputSchema` (a Standard Schema or a JSON Schema literal), against that schema instead, which then
   * types the result (a Standard Schema's output is what it carries); a tool known to have no outputSchema is not checked.
   */
  callTool<const S extends TypedSchema>(
    name: string,
    args: Record<string, unknown> | undefined,
    options: TypedCallOptions<S>,
  ): Promise<TypedCallToolResult<SchemaOutput<S>>>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions & { outputSchema?: TypedSchema }): Promise<CallToolResult> {
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    const schema = options?.outputSchema;
    let check: ((result: CallToolResult) => CallToolResult | Promise<CallToolResult>) | undefined;
    if (schema !== undefined) check = (result) => this.#structured.check(name, result, schema);
    else if (this.#settings.validateToolOutput && !this.#validator.knownWithoutSchema(name))
      check = (result) => this.#validator.check(name, result, this.#listAllTools);
    return this.#call('tools/call', (s) => s.requestWithInputs('tools/call', params, options, undefined, check));
  }

  /** One page of `resources/list`. */
  listResources(params: { cursor?: string } = {}, options?: ListOptions): Promise<ListResourcesResult> {
    return this.#lists.page('resources/list', params.cursor, options);
  }

  /** Every resource, following cursors. */
  listAllResources(options?: ListOptions): Promise<Resource[]> {
    return this.#lists.all('resources/list', (page: ListResourcesResult): Resource[] => page.resources, options);
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(params: { cursor?: string } = {}, options?: ListOptions): Promise<ListResourceTemplatesResult> {
    return this.#lists.page('resources/templates/list', params.cursor, options);
  }

  /** Every resource template, following cursors. */
  listAllResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return this.#lists.all(
      'resources/templates/list',
      (page: ListResourceTemplatesResult): ResourceTemplate[] => page.resourceTemplates,
      options,
    );
  }

  /** Reads a resource (modern: cached while fresh, input rounds served by the handlers). */
  readResource(uri: string, options?: ListOptions): Promise<ReadResourceResult> {
    return this.#lists.read(uri, options);
  }

  /** Subscribes to a resource's updates (`onResourceUpdated`): legacy `resources/subscribe`, modern the managed listen stream. */
  subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    return this.#call('resources/subscribe', (s) => this.#router.subscribeResource(s, uri, true, options));
  }

  /** Ends a subscription made with {@link subscribeResource}. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    return this.#call('resources/unsubscribe', (s) => this.#router.subscribeResource(s, uri, false, options));
  }

  /**
   * Modern `subscriptions/listen`: resolves once the server acknowledged the stream. Its notifications go to
   * `options.onNotification` (demultiplexed by subscription id); it ends on the server's response, on the server's
   * `notifications/cancelled`, on `close()` or `options.signal`, or when the connection closes (see `done`).
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Promise<ListenSubscription> {
    return this.#call('subscriptions/listen', (s) => {
      if (s.era === 'legacy') return Promise.reject(s.wrongEra('subscriptions/listen', 'use the on…() listeners and subscribeResource()'));
      return s.listen(filter, options).ready;
    });
  }

  /** One page of `prompts/list`. */
  listPrompts(params: { cursor?: string } = {}, options?: ListOptions): Promise<ListPromptsResult> {
    return this.#lists.page('prompts/list', params.cursor, options);
  }

  /** Every prompt, following cursors. */
  listAllPrompts(options?: ListOptions): Promise<Prompt[]> {
    return this.#lists.all('prompts/list', (page: ListPromptsResult): Prompt[] => page.prompts, options);
  }

  /** Gets a prompt (modern: input rounds served by the handlers). */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    return this.#call('prompts/get', (s) => s.requestWithInputs('prompts/get', params, options) as Promise<GetPromptResult>);
  }

  /** `completion/complete`: suggestions for a prompt argument or a resource template variable. */
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#call('completion/complete', (s) => s.request('completion/complete', params as JsonObject, options));
  }

  /**
   * Sets the minimum level of `notifications/message`. Legacy: `logging/setLevel`. Modern: the level is put in
   * every later request's `_meta` (the server then logs on each request's own stream).
   */
  setLoggingLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    if (!isLogLevel(level)) return Promise.reject(new LocalError('INVALID_ARGUMENT', `Unknown log level ${quoteInput(level)}`));
    return this.#call('logging/setLevel', (s) => setLevel(s, level, options).then(() => void (this.#logLevel = level)));
  }

  /** Legacy: tells the server the roots changed. Modern: nothing to do (the server asks for roots each time). */
  notifyRootsListChanged(): Promise<void> {
    return this.#call('notifications/roots/list_changed', rootsChanged);
  }

  /**
   * Any request, shaped for the era (modern `_meta`, gates, input rounds); the escape hatch for methods without a
   * typed method of their own (extensions). Typed from the spec for its methods, JSON objects for any other.
   */
  request<M extends string>(method: M, params?: ClientRequestParams<M>, options?: CallOptions): Promise<ClientRequestResult<M>> {
    const wire = params as JsonObject | undefined;
    return this.#call(method, (s) =>
      INPUT_REQUIRED_METHODS.has(method) && s.era === 'modern'
        ? (s.requestWithInputs(method, wire ?? {}, options) as Promise<ClientRequestResult<M>>)
        : (s.request(method, wire, options) as Promise<ClientRequestResult<M>>),
    );
  }

  /** Sends a notification: typed from the spec for the notifications a client sends, a JSON object for any other. */
  notify<M extends string>(
    method: M,
    params?: M extends keyof ClientNotificationMap ? ClientNotificationMap[M] : JsonObject,
  ): Promise<void> {
    return this.#call(method, (s) => (s.peer as unknown as { notify(m: string, p?: unknown): Promise<void> }).notify(method, params));
  }

  /**
   * Listens to notifications of `method`. Returns the function that removes the listener; its `ready` promise
   * resolves once the notifications can arrive (in 2026-07-28, once the client's listen stream carrying them is
   * acknowledged) — await it before a change you must not miss. See {@link ListenerHandle}.
   */
  on<M extends string>(method: M, listener: NotificationListener<ParamsOf<M>>): ListenerHandle {
    return this.#router.on(method, listener);
  }

  /** Listens to every notification (in 2026-07-28 the listen stream then asks for every list the server announces). */
  onNotification(listener: (notification: ServerNotification) => void): ListenerHandle {
    return this.#router.onAny(listener);
  }

  /** The server's tool list changed (both eras; modern via the client's listen stream, ready when `ready` resolves). */
  onToolsListChanged(listener: () => void): ListenerHandle {
    return this.#router.on('notifications/tools/list_changed', () => listener());
  }

  /** The server's prompt list changed (see {@link onToolsListChanged}). */
  onPromptsListChanged(listener: () => void): ListenerHandle {
    return this.#router.on('notifications/prompts/list_changed', () => listener());
  }

  /** The server's resource list changed (see {@link onToolsListChanged}). */
  onResourcesListChanged(listener: () => void): ListenerHandle {
    return this.#router.on('notifications/resources/list_changed', () => listener());
  }

  /** A subscribed resource changed (see {@link subscribeResource}). */
  onResourceUpdated(listener: (params: ResourceUpdatedParams) => void): ListenerHandle {
    return this.#router.on('notifications/resources/updated', listener);
  }

  /** A log message from the server (see {@link setLoggingLevel}). */
  onLogMessage(listener: (params: LoggingMessageParams) => void): ListenerHandle {
    return this.#router.on('notifications/message', listener);
  }

  /** The connection closed; `error` says why when it was not `close()` (e.g. `SERVER_EXITED`). */
  onClose(listener: (error: LocalError | undefined) => void): () => void {
    return this.#current.onClose(listener);
  }

  /** Closes the connection (pending calls reject with `CONNECTION_CLOSED`). Idempotent. */
  async close(): Promise<void> {
    const connecting = this.#connecting;
    if (connecting) await connecting.close();
    const session = this.#current.session;
    if (!session) return;
    this.#current.closing(session);
    await session.peer.close();
  }

  /** `await using client = …` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #call<T>(method: string, run: (session: Session) => Promise<T>): Promise<T> {
    return this.#current.call(method, run);
  }
}
