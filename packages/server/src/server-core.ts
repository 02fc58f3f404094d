import {
  LEGACY_PROTOCOL_VERSIONS,
  LocalError,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  shouldLog,
  type LegacyProtocolVersion,
  type LogLevel,
  type ProtocolVersion,
} from '@wiremcp/protocol';
import { Peer, type RequestContext, type Transport } from '@wiremcp/jsonrpc';
import { createSchemaCompiler, type SchemaCompiler } from '@wiremcp/json-schema';
import { deriveCapabilities, type CapabilityOptions } from './capabilities.js';
import { complete } from './completion.js';
import { ServerConnection } from './connection.js';
import { CACHEABLE_METHODS } from './modern.js';
import type { ContextServices, HandlerContext, RequestScope } from './handler-context.js';
import { paginate } from './pagination.js';
import { PromptRegistry, type PromptHandler, type PromptOptions, type RegisteredPrompt } from './prompt-registry.js';
import { RequestStateSigner, type RequestStateOptions } from './request-state.js';
import {
  ResourceRegistry,
  type RegisteredResource,
  type ResourceReader,
  type TemplateOptions,
  type TemplateReader,
} from './resource-registry.js';
import { ToolRegistry, type RegisteredTool, type ToolHandler } from './tool-registry.js';
import type {
  CacheHint,
  Implementation,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './types.js';

/** Handles a request method itself, bypassing (or extending) the built-in handling. */
export type CustomRequestHandler = (params: Record<string, unknown> | undefined, context: HandlerContext) => unknown;

/** Methods whose results carry caching hints in 2026-07-28. */
export type CacheableMethod =
  'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read';

/** Options of {@link McpServer}. */
export interface ServerOptions {
  /** Instructions for the model, sent in the initialize and discover results. */
  instructions?: string;
  /** Capabilities to force; the rest is derived from what is registered. */
  capabilities?: CapabilityOptions;
  /** Revisions this server speaks (default: every revision wiremcp implements). */
  protocolVersions?: readonly ProtocolVersion[];
  /** Items per page of every list (default 100). */
  pageSize?: number;
  /** Caching hints of 2026-07-28 results, per method or as a default (default `{ttlMs: 0, cacheScope: 'public'}`). */
  caching?: Partial<Record<CacheableMethod | 'default', CacheHint>>;
  /** Key and lifetime of input-required `requestState` (default: a random key per process, 10 minutes). */
  requestState?: RequestStateOptions;
  /** Timeout of requests the server sends the client (sampling, elicitation, roots), in ms (default 10 minutes). */
  clientRequestTimeoutMs?: number;
  /** Receives internal errors (their text is never sent to clients). Default: `console.error` (stderr). */
  onInternalError?: (error: unknown) => void;
  /** The JSON Schema compiler used for tool schemas (default: a lazily loaded ajv). */
  schemaCompiler?: SchemaCompiler;
}

const DEFAULT_CACHE: CacheHint = { ttlMs: 0, cacheScope: 'public' };

/**
 * An MCP server: a registry of tools, resources, prompts and completions that serves both protocol eras on every
 * connection — legacy clients through `initialize`, 2026-07-28 clients statelessly, per request.
 *
 * One server can serve any number of connections (`connect` once per transport); the registries, compiled
 * schemas and caches are shared by all of them.
 */
export class McpServer implements ContextServices {
  /** Who the server is (`serverInfo`). */
  readonly info: Implementation;
  /** Called when a legacy client sent `notifications/initialized`. */
  oninitialized: ((connection: ServerConnection) => void) | undefined;
  /** Called when a legacy client sent `notifications/roots/list_changed`. */
  onrootslistchanged: ((connection: ServerConnection) => void) | undefined;

  /** @internal */ readonly tools: ToolRegistry;
  /** @internal */ readonly resources: ResourceRegistry;
  /** @internal */ readonly prompts: PromptRegistry;
  /** @internal */ readonly requestState: RequestStateSigner;
  /** @internal */ readonly versions: readonly ProtocolVersion[];
  /** @internal */ readonly legacyVersions: readonly LegacyProtocolVersion[];
  /** @internal */ readonly modernVersions: readonly ProtocolVersion[];

  readonly #options: ServerOptions;
  readonly #connections = new Set<ServerConnection>();
  readonly #custom = new Map<string, CustomRequestHandler>();
  readonly #capabilities = new Map<ProtocolVersion, Record<string, unknown>>();
  readonly #pendingChanges = new Set<'tools' | 'prompts' | 'resources'>();
  #warmUpScheduled = false;

  constructor(info: Implementation, options: ServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info.version !== 'string') {
      throw new LocalError('INVALID_ARGUMENT', 'McpServer needs serverInfo with a name and a version');
    }
    this.info = info;
    this.#options = options;
    const versions = options.protocolVersions ?? PROTOCOL_VERSIONS;
    this.versions = PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    this.legacyVersions = LEGACY_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    this.modernVersions = MODERN_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    if (this.versions.length === 0) throw new LocalError('INVALID_ARGUMENT', 'McpServer needs at least one protocol version');
    const compiler = options.schemaCompiler ?? createSchemaCompiler();
    this.tools = new ToolRegistry(compiler, () => this.#changed('tools'));
    this.resources = new ResourceRegistry(() => this.#changed('resources'));
    this.prompts = new PromptRegistry(() => this.#changed('prompts'));
    this.requestState = new RequestStateSigner(options.requestState);
  }

  /** Instructions for the model. */
  get instructions(): string | undefined {
    return this.#options.instructions;
  }

  /** The connections currently served. */
  get connections(): ReadonlySet<ServerConnection> {
    return this.#connections;
  }

  /** Registers a tool; see {@link ToolRegistry.register}. */
  registerTool<Args = Record<string, unknown>>(definition: ToolDefinition, handler: ToolHandler<Args>): RegisteredTool {
    return this.tools.register(definition, handler);
  }

  /** Registers a fixed resource. */
  registerResource(definition: ResourceDefinition, read: ResourceReader): RegisteredResource {
    return this.resources.register(definition, read);
  }

  /** Registers an RFC 6570 resource template, with optional variable completion and listing. */
  registerResourceTemplate(definition: ResourceTemplateDefinition, read: TemplateReader, options?: TemplateOptions): RegisteredResource {
    return this.resources.registerTemplate(definition, read, options);
  }

  /** Registers a prompt, with optional argument completion. */
  registerPrompt(definition: PromptDefinition, handler: PromptHandler, options?: PromptOptions): RegisteredPrompt {
    return this.prompts.register(definition, handler, options);
  }

  /**
   * Serves `method` with `handler` instead of the built-in handling (or adds a method). The handler runs after
   * the era checks, with the same context as a tool handler.
   */
  setRequestHandler(method: string, handler: CustomRequestHandler): void {
    this.#custom.set(method, handler);
  }

  /** Serves a transport. Resolves once the transport is started. */
  async connect(transport: Transport): Promise<ServerConnection> {
    const peer = new Peer({
      requestTimeoutMs: this.#options.clientRequestTimeoutMs ?? 600_000,
      onInternalError: this.#options.onInternalError ? (error) => this.#options.onInternalError!(error) : undefined,
    });
    const connection = new ServerConnection(this, peer);
    this.#connections.add(connection);
    const previous = peer.onclose;
    peer.onclose = () => {
      this.#connections.delete(connection);
      previous?.();
    };
    await connection.start(transport);
    return connection;
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await Promise.all([...this.#connections].map((connection) => connection.close()));
  }

  /** Tells subscribers (legacy `resources/subscribe`, 2026-07-28 listen streams) that `uri` changed. */
  notifyResourceUpdated(uri: string): void {
    for (const connection of this.#connections) connection.notifyResourceUpdated(uri);
  }

  /** Sends a log message to every legacy session that wants its level (not tied to a request). */
  log(level: LogLevel, data: unknown, logger?: string): void {
    for (const connection of this.#connections) connection.logToSession(level, data, logger, (minimum) => shouldLog(level, minimum));
  }

  /** @internal ContextServices: a log message for one request. */
  sendLog(scope: RequestScope, rpc: RequestContext, level: LogLevel, data: unknown, logger: string | undefined): Promise<void> {
    return rpc.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
  }

  /** @internal the capabilities announced for a revision (cached until the registries change). */
  capabilitiesFor(version: ProtocolVersion): Record<string, unknown> {
    let caps = this.#capabilities.get(version);
    if (!caps) {
      caps = deriveCapabilities(
        this.#options.capabilities ?? {},
        {
          tools: this.tools.size,
          resources: this.resources.size,
          prompts: this.prompts.size,
          completions: this.resources.hasCompletions || this.prompts.hasCompletions,
        },
        version,
      );
      this.#capabilities.set(version, caps);
    }
    return caps;
  }

  /** @internal caching hint of a method's modern results. */
  cacheHint(method: string): CacheHint | undefined {
    if (!CACHEABLE_METHODS.has(method)) return undefined;
    const caching = this.#options.caching;
    return caching?.[method as CacheableMethod] ?? caching?.default ?? DEFAULT_CACHE;
  }

  /** @internal one page of a list. */
  page<T>(kind: string, items: readonly T[], cursor: unknown): { page: T[]; nextCursor?: string } {
    return paginate(kind, items, cursor, this.#options.pageSize ?? 100);
  }

  /** @internal `completion/complete`. */
  complete(params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    return complete(params, this.prompts, this.resources);
  }

  /** @internal the `server/discover` result (before modern stamping). */
  discover(): Record<string, unknown> {
    const latest = this.modernVersions[this.modernVersions.length - 1] ?? this.versions[this.versions.length - 1]!;
    const result: Record<string, unknown> = {
      supportedVersions: [...this.versions].reverse(),
      capabilities: this.capabilitiesFor(latest),
    };
    if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions;
    return result;
  }

  /** @internal */
  customHandler(method: string): CustomRequestHandler | undefined {
    return this.#custom.size === 0 ? undefined : this.#custom.get(method);
  }

  /** @internal */
  emitInitialized(connection: ServerConnection): void {
    this.oninitialized?.(connection);
  }

  /** @internal */
  emitRootsListChanged(connection: ServerConnection): void {
    this.onrootslistchanged?.(connection);
  }

  /** @internal compiles tool schemas soon after a handshake, off the handshake's own path. */
  scheduleWarmUp(): void {
    if (this.#warmUpScheduled) return;
    this.#warmUpScheduled = true;
    setTimeout(() => {
      this.tools.warmUp().catch(() => {});
    }, 0);
  }

  #changed(kind: 'tools' | 'prompts' | 'resources'): void {
    this.#capabilities.clear();
    if (this.#pendingChanges.size === 0) {
      // Several changes in one tick become one notification per list.
      queueMicrotask(() => {
        const kinds = [...this.#pendingChanges];
        this.#pendingChanges.clear();
        for (const connection of this.#connections) for (const changed of kinds) connection.notifyListChanged(changed);
      });
    }
    this.#pendingChanges.add(kind);
  }
}

/** The part of the server a connection uses. */
export type ServerCore = McpServer;
