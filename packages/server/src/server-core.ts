/**
 * The state one `McpServer` shares between everything that serves its requests — connections and `dispatch`
 * exchanges: the registries, the options, the capabilities derived from what is registered, the signer of
 * `requestState`, the custom handlers and the server-wide fan-out. Internal: each consumer sees it through the
 * narrow interface it needs (`RouterHost`, `LegacyHost`, `ListenHost`, `ConnectionHost`).
 */
import {
  CACHEABLE_METHODS,
  LEGACY_PROTOCOL_VERSIONS,
  LocalError,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  type CacheableMethod,
  type EraNeutralResult,
  type LegacyProtocolVersion,
  type ProtocolVersion,
} from '@wiremcp/protocol';
import { createSchemaCompiler } from '@wiremcp/json-schema';
import { checkCacheHint } from './cache-hints.js';
import { reportInternalError, type Instrumentation, type InternalErrorReporter } from '@wiremcp/jsonrpc';
import { deriveCapabilities } from './capabilities.js';
import { complete } from './completion.js';
import type { HandlerContext, RequestScope } from './handler-context.js';
import type { LegacyHost } from './legacy-session.js';
import { paginate } from './pagination.js';
import { PromptRegistry } from './prompt-registry.js';
import { RequestRouter, type RouterHost } from './request-router.js';
import { instrumentRouter, type RequestServer } from './instrumented-router.js';
import { RequestStateSigner } from './request-state.js';
import { ResourceRegistry } from './resource-registry.js';
import type { ServerRequestContext, WireParams } from './server-peer.js';
import type { CustomRequestHandler, PagedList, ServerOptions } from './server-options.js';
import { SubscriberRegistry } from './subscriber-registry.js';
import type { SubscriptionHooks } from './subscription-hooks.js';
import { TaskService } from './task-service.js';
import { ToolRegistry } from './tool-registry.js';
import type { CacheHint, Implementation } from './types.js';

const DEFAULT_CACHE: CacheHint = { ttlMs: 0, cacheScope: 'public' };
const DEFAULT_PAGE_SIZE = 100;
/** The list kinds of the page-size option and the cursor kinds of `paginate`. */
const PAGED: ReadonlyArray<readonly [PagedList, string]> = [
  ['tools', 'tools'],
  ['prompts', 'prompts'],
  ['resources', 'resources'],
  ['resourceTemplates', 'templates'],
];

/** The page size of each cursor kind; throws `INVALID_ARGUMENT` for a size that is not an integer ≥ 1. */
function pageSizes(option: ServerOptions['pageSize']): ReadonlyMap<string, number> {
  const sizes = new Map<string, number>();
  const each = typeof option === 'object' && option !== null ? option : { default: option };
  for (const [list, kind] of PAGED) {
    const size = each[list] ?? each.default ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new LocalError('INVALID_ARGUMENT', `pageSize of ${list} must be an integer ≥ 1, not ${String(size)}`);
    }
    sizes.set(kind, size);
  }
  return sizes;
}

/** See the module comment. */
export class ServerCore implements RouterHost, LegacyHost {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly versions: readonly ProtocolVersion[];
  readonly legacyVersions: readonly LegacyProtocolVersion[];
  readonly modernVersions: readonly ProtocolVersion[];
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly requestState: RequestStateSigner;
  readonly subscribers = new SubscriberRegistry();
  readonly custom = new Map<string, CustomRequestHandler>();
  /** Extensions declared with `McpServer.declareExtension`: announced in every revision's capabilities. */
  readonly extensions = new Map<string, Readonly<Record<string, unknown>>>();
  /** Serves every request: the router, observed when the server has an `instrumentation`. */
  readonly router: RequestServer;
  /** The router itself, where middleware is installed (inside the instrumentation: a span covers the middleware). */
  readonly requestRouter: RequestRouter;
  /** Receives internal errors (never sent to clients): the `onInternalError` option, else stderr. */
  readonly report: InternalErrorReporter;
  readonly #capabilities = new Map<ProtocolVersion, Readonly<Record<string, unknown>>>();
  readonly #pageSizes: ReadonlyMap<string, number>;
  #warmUpScheduled = false;
  #tasks: TaskService | undefined;

  constructor(info: Implementation, options: ServerOptions, versions: readonly ProtocolVersion[]) {
    this.info = info;
    this.options = options;
    this.versions = versions;
    this.#pageSizes = pageSizes(options.pageSize);
    for (const [method, hint] of Object.entries(options.caching ?? {})) checkCacheHint(hint, `caching['${method}']`);
    this.legacyVersions = LEGACY_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    this.modernVersions = MODERN_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    const compiler = options.schemaCompiler ?? createSchemaCompiler();
    this.tools = new ToolRegistry(compiler, () => this.#changed('tools'), options.toJsonSchema);
    this.resources = new ResourceRegistry(() => this.#changed('resources'), compiler);
    this.prompts = new PromptRegistry(() => this.#changed('prompts'), compiler, options.toJsonSchema);
    this.requestState = new RequestStateSigner(options.requestState);
    const onInternalError = options.onInternalError;
    this.report = onInternalError ? (error) => onInternalError(error) : reportInternalError;
    const router = new RequestRouter(this);
    this.requestRouter = router;
    this.router = options.instrumentation ? instrumentRouter(router, options.instrumentation, this.report) : router;
  }

  /** Every revision the server speaks, as `PROTOCOL_VERSIONS` orders them. */
  static versionsOf(options: ServerOptions): readonly ProtocolVersion[] {
    const wanted = options.protocolVersions ?? PROTOCOL_VERSIONS;
    return PROTOCOL_VERSIONS.filter((v) => wanted.includes(v));
  }

  /** The `instrumentation` option. */
  get instrumentation(): Instrumentation | undefined {
    return this.options.instrumentation;
  }

  get instructions(): string | undefined {
    return this.options.instructions;
  }

  /** The author's subscription hooks (`onSubscribe`, `onUnsubscribe` of the options). */
  get subscriptionHooks(): SubscriptionHooks {
    return this.options;
  }

  /** The capabilities announced for a revision (cached until the registries change). */
  capabilitiesFor(version: ProtocolVersion): Readonly<Record<string, unknown>> {
    let caps = this.#capabilities.get(version);
    if (!caps) {
      caps = deriveCapabilities(
        this.options.capabilities ?? {},
        {
          tools: this.tools.size,
          resources: this.resources.size,
          prompts: this.prompts.size,
          completions: this.resources.hasCompletions || this.prompts.hasCompletions,
          tasks: this.tasksEnabled,
        },
        version,
        this.extensions,
      );
      this.#capabilities.set(version, caps);
    }
    return caps;
  }

  /** True when the server serves tasks: a task-capable tool is registered, or the `tasks` option is set. */
  get tasksEnabled(): boolean {
    return this.options.tasks !== undefined || this.tools.hasTaskTools;
  }

  /** The task service, when tasks are served (created on first use: its store lives as long as the server). */
  get tasks(): TaskService | undefined {
    if (!this.tasksEnabled) return undefined;
    return (this.#tasks ??= new TaskService(this.options.tasks ?? {}, this.tools, (error) => this.report(error, { method: 'tools/call' })));
  }

  /** The caching hint of a method's complete 2026-07-28 results (`undefined` for methods that are not cacheable). */
  cacheHint(method: string): CacheHint | undefined {
    if (!CACHEABLE_METHODS.has(method)) return undefined;
    const caching = this.options.caching;
    return caching?.[method as CacheableMethod] ?? caching?.default ?? DEFAULT_CACHE;
  }

  /** One page of a list. */
  page<T>(kind: string, items: readonly T[], cursor: unknown): { page: T[]; nextCursor?: string } {
    return paginate(kind, items, cursor, this.#pageSizes.get(kind) ?? DEFAULT_PAGE_SIZE);
  }

  /**
   * `resources/list`: one page, in the configured order; a 2026-07-28 page carries the list's hint when listing
   * templates declared one (the same on every page).
   */
  async listResources(params: WireParams, context: HandlerContext): Promise<EraNeutralResult<'resources/list'>> {
    const all = await this.resources.list(context, this.options.resourceListOrder);
    const { page, nextCursor } = this.page('resources', all, params?.cursor);
    const result: EraNeutralResult<'resources/list'> = nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
    if (context.era === 'modern') Object.assign(result, this.resources.listHint(this.cacheHint('resources/list')!));
    return result;
  }

  /** `completion/complete`. */
  complete(params: WireParams, rpc: ServerRequestContext, scope: RequestScope): Promise<EraNeutralResult<'completion/complete'>> {
    return complete(params, this.prompts, this.resources, rpc, scope);
  }

  /** The `server/discover` result (before the modern stamping). */
  discover(): EraNeutralResult<'server/discover'> {
    const latest = this.modernVersions[this.modernVersions.length - 1] ?? this.versions[this.versions.length - 1]!;
    const result: EraNeutralResult<'server/discover'> = {
      supportedVersions: [...this.versions].reverse(),
      capabilities: this.capabilitiesFor(latest),
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    return result;
  }

  /** The custom handler of `method`, if one was set. */
  customHandler(method: string): CustomRequestHandler | undefined {
    return this.custom.size === 0 ? undefined : this.custom.get(method);
  }

  /** Compiles tool schemas soon after a handshake, off the handshake's own path. */
  scheduleWarmUp(): void {
    if (this.#warmUpScheduled) return;
    this.#warmUpScheduled = true;
    setTimeout(() => {
      this.tools.warmUp().catch(() => {});
    }, 0);
  }

  /** Declares (or replaces) an extension; the capabilities are derived again on next use. */
  declareExtension(id: string, settings: Readonly<Record<string, unknown>>): void {
    this.extensions.set(id, settings);
    this.#capabilities.clear();
  }

  #changed(kind: 'tools' | 'prompts' | 'resources'): void {
    this.#capabilities.clear();
    this.subscribers.listChanged(kind);
  }
}
