/**
 * One configured server in a host: its connection attempts (each with a new client and a new process or HTTP
 * transport, bounded by the connect timeout), its lists (loaded once connected, reloaded on `list_changed` — legacy
 * notifications or the client's 2026-07-28 listen stream alike), and its retries with backoff when it fails to start,
 * dies, or loses its connection. Nothing a server does reaches the other servers.
 */
import { McpClient, type InputHandlers } from '@wiremcp/client';
import { isLocalError } from '@wiremcp/protocol';
import type { Catalogue, CatalogueKind } from '../catalogue/catalogue.js';
import type { ServerConfig } from '../config/types.js';
import { retryDelay, type RestartPolicy } from './backoff.js';
import type { TypedEvents } from './events.js';
import { createLink, type LinkContext, type ServerLink } from './server-link.js';
import type { HostEvents, HostRoot, McpHostOptions, ServerState, ServerStatus } from './types.js';

/** What a server needs from its host. */
export interface ServerHost {
  readonly options: McpHostOptions;
  readonly policy: RestartPolicy;
  readonly catalogue: Catalogue;
  readonly events: TypedEvents<HostEvents>;
  readonly link: Omit<LinkContext, 'onStderr'>;
  readonly redact: (text: string) => string;
  readonly roots: () => readonly HostRoot[];
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
const CLIENT_INFO = { name: 'wiremcp-host', version: '0.1.0' };
const KINDS: readonly CatalogueKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];
/** Failures of a call that mean the connection is gone. */
const LOST_CODES = ['SEND_FAILED', 'SESSION_EXPIRED', 'CONNECTION_CLOSED', 'SERVER_EXITED'] as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Failures another attempt cannot fix: a program that does not exist, no shared revision, a refused login. */
function isPermanent(error: unknown): boolean {
  if (isLocalError(error, 'UNSUPPORTED_PROTOCOL_VERSION') || isLocalError(error, 'AUTHORIZATION_FAILED')) return true;
  if (isLocalError(error, 'INVALID_ARGUMENT')) return true;
  return isLocalError(error, 'SERVER_EXITED') && (error.details as { errno?: unknown } | undefined)?.errno !== undefined;
}

/** See the module comment. Created by the host; its state is read through {@link status}. */
export class ManagedServer {
  readonly config: ServerConfig;
  readonly #host: ServerHost;
  #state: ServerState;
  #since = Date.now();
  #client: McpClient | undefined;
  #link: ServerLink | undefined;
  #failures = 0;
  #restarts = 0;
  #lastError: string | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retryAt: number | undefined;
  #attempt = 0;
  #closed = false;
  #settled: Promise<void> = Promise.resolve();
  #lostReason: unknown;
  readonly #refreshing = new Map<CatalogueKind, Promise<void>>();
  readonly #dirty = new Set<CatalogueKind>();

  constructor(config: ServerConfig, host: ServerHost) {
    this.config = config;
    this.#host = host;
    this.#state = config.disabled ? 'disabled' : 'connecting';
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The connected client, while `ready`. */
  get client(): McpClient | undefined {
    return this.#state === 'ready' ? this.#client : undefined;
  }

  /** Starts the first attempt; resolves once it has settled (ready, retrying or failed), never rejects. */
  start(): Promise<void> {
    if (this.config.disabled || this.#closed) return Promise.resolve();
    this.#settled = this.#connect();
    return this.#settled;
  }

  /** Resolves once the current attempt has settled. */
  settled(): Promise<void> {
    return this.#settled;
  }

  /** Stops the current connection (if any) and connects again now, forgetting earlier failures. */
  async restart(): Promise<void> {
    if (this.#closed) return;
    this.#cancelRetry();
    this.#failures = 0;
    if (this.#state === 'ready') this.#restarts++;
    await this.#disconnect();
    this.#settled = this.#connect();
    return this.#settled;
  }

  /** Tells the server the roots changed (legacy `notifications/roots/list_changed`; nothing to send in 2026-07-28). */
  async rootsChanged(): Promise<void> {
    const client = this.client;
    if (client?.clientCapabilities?.roots) await client.notifyRootsListChanged();
  }

  /**
   * A call over `client` failed. When the failure says the connection is gone (the server cannot be reached, its
   * session expired, its process exited), the server is treated as lost — reconnected with backoff — even where no
   * connection was held open to notice it (a 2026-07-28 HTTP server is stateless).
   */
  callFailed(client: McpClient, error: unknown): void {
    if (client !== this.#client || this.#state !== 'ready' || !LOST_CODES.some((code) => isLocalError(error, code))) return;
    this.#lostReason = error;
    void client.close().catch(() => undefined);
  }

  /** The server's row of the status table. */
  status(): ServerStatus {
    const client = this.client;
    const counts = this.#counts();
    return {
      name: this.config.name,
      state: this.#state,
      transport: this.config.transport,
      counts,
      failures: this.#failures,
      restarts: this.#restarts,
      since: this.#since,
      source: this.config.source.file,
      ...(client?.era === undefined ? {} : { era: client.era }),
      ...(client?.protocolVersion === undefined ? {} : { protocolVersion: client.protocolVersion }),
      ...(client?.serverInfo === undefined ? {} : { serverInfo: client.serverInfo }),
      ...(client && this.#link?.connectedOver ? { connectedOver: this.#link.connectedOver } : {}),
      ...(this.#link?.pid === undefined || this.#state === 'closed' ? {} : { pid: this.#link.pid }),
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#retryAt === undefined ? {} : { retryAt: this.#retryAt }),
    };
  }

  /** Stops for good: cancels a scheduled retry, closes the connection (stops the process). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#cancelRetry();
    await this.#disconnect();
    this.#setState('closed');
  }

  #counts(): Record<CatalogueKind, number> {
    const name = this.config.name;
    const catalogue = this.#host.catalogue;
    return {
      tools: catalogue.tools().filter((t) => t.server === name).length,
      prompts: catalogue.prompts().filter((p) => p.server === name).length,
      resources: catalogue.resources().filter((r) => r.server === name).length,
      resourceTemplates: catalogue.resourceTemplates().filter((t) => t.server === name).length,
    };
  }

  #setState(state: ServerState, error?: unknown): void {
    const previous = this.#state;
    if (error !== undefined) this.#lastError = this.#host.redact(messageOf(error));
    if (previous === state && error === undefined) return;
    this.#state = state;
    this.#since = Date.now();
    this.#host.events.emit('state', {
      server: this.config.name,
      state,
      previous,
      ...(error === undefined ? {} : { error: this.#lastError! }),
    });
  }

  #handlers(): InputHandlers {
    const server = this.config.name;
    const handlers = this.#host.options.handlers ?? {};
    const out: InputHandlers = {};
    if (handlers.sampling) out.sampling = (params, context) => handlers.sampling!(params, { ...context, server });
    if (handlers.elicitation) out.elicitation = (params, context) => handlers.elicitation!(params, { ...context, server });
    if (handlers.roots) out.roots = (context) => handlers.roots!({ ...context, server });
    else if (this.#host.options.roots !== undefined) out.roots = () => ({ roots: this.#host.roots().map((root) => ({ ...root })) });
    return out;
  }

  #newClient(): McpClient {
    const options = this.#host.options;
    const connectTimeoutMs = this.config.connectTimeoutMs ?? options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const requestTimeoutMs = this.config.requestTimeoutMs ?? options.requestTimeoutMs;
    const client = new McpClient(options.clientInfo ?? CLIENT_INFO, {
      handlers: this.#handlers(),
      ...(options.elicitation?.url ? { elicitation: { url: true } } : {}),
      era: this.config.transport === 'sse' ? 'legacy' : 'auto',
      probeTimeoutMs: Math.min(DEFAULT_PROBE_TIMEOUT_MS, Math.max(1, Math.floor(connectTimeoutMs / 2))),
      ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
      ...(options.validateToolOutput === false ? { validateToolOutput: false } : {}),
      onError: (error) => this.#host.events.emit('error', { server: this.config.name, error }),
    });
    const server = this.config.name;
    const events = this.#host.events;
    client.onNotification(({ method, params }) => {
      events.emit('notification', { server, method, ...(params === undefined ? {} : { params }) });
      if (method === 'notifications/message' && params !== undefined)
        events.emit('log', { server, ...(params as Omit<HostEvents['log'], 'server'>) });
    });
    client.onToolsListChanged(() => this.#refresh(client, 'tools'));
    client.onPromptsListChanged(() => this.#refresh(client, 'prompts'));
    client.onResourcesListChanged(() => {
      this.#refresh(client, 'resources');
      this.#refresh(client, 'resourceTemplates');
    });
    return client;
  }

  async #connect(): Promise<void> {
    const attempt = ++this.#attempt;
    this.#retryAt = undefined;
    this.#setState('connecting');
    const timeoutMs = this.config.connectTimeoutMs ?? this.#host.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const client = this.#newClient();
    let timedOut: Promise<void> | undefined;
    const timer = setTimeout(() => {
      timedOut = client.close().catch(() => undefined);
    }, timeoutMs);
    let link: ServerLink | undefined;
    try {
      link = await createLink(this.config, { ...this.#host.link, onStderr: (text) => this.#stderr(text) });
      if (attempt !== this.#attempt || this.#closed) throw new Error('superseded');
      this.#client = client;
      this.#link = link;
      await link.connect(client);
      await this.#loadAll(client);
    } catch (error) {
      clearTimeout(timer);
      // After a timeout the close started by the timer is what stops the process: wait for it, not a second close.
      await (timedOut ?? client.close().catch(() => undefined));
      await link?.close().catch(() => undefined);
      if (attempt !== this.#attempt || this.#closed) return;
      this.#client = undefined;
      this.#failed(timedOut !== undefined ? new Error(`did not connect within ${timeoutMs} ms (${messageOf(error)})`) : error);
      return;
    }
    clearTimeout(timer);
    if (attempt !== this.#attempt || this.#closed) {
      await client.close().catch(() => undefined);
      return;
    }
    this.#failures = 0;
    client.onClose((error) => this.#lost(client, error));
    this.#setState('ready');
    this.#host.events.emit('catalogue', { server: this.config.name, kinds: KINDS });
  }

  #stderr(text: string): void {
    this.#host.events.emit('stderr', { server: this.config.name, text });
  }

  async #loadAll(client: McpClient): Promise<void> {
    const capabilities = client.serverCapabilities ?? {};
    const name = this.config.name;
    const catalogue = this.#host.catalogue;
    const [tools, prompts, resources, templates] = await Promise.all([
      capabilities.tools ? client.listAllTools() : [],
      capabilities.prompts ? client.listAllPrompts() : [],
      capabilities.resources ? client.listAllResources() : [],
      capabilities.resources ? client.listAllResourceTemplates().catch(() => []) : [],
    ]);
    catalogue.set(name, 'tools', tools);
    catalogue.set(name, 'prompts', prompts);
    catalogue.set(name, 'resources', resources);
    catalogue.set(name, 'resourceTemplates', templates);
  }

  /** Reloads one list; a change during a reload reloads again once it ends. */
  #refresh(client: McpClient, kind: CatalogueKind): void {
    if (client !== this.#client || this.#state !== 'ready') return;
    if (this.#refreshing.has(kind)) {
      this.#dirty.add(kind);
      return;
    }
    const run = async (): Promise<void> => {
      do {
        this.#dirty.delete(kind);
        const items = await this.#list(client, kind);
        if (client !== this.#client || this.#state !== 'ready') return;
        this.#host.catalogue.set(this.config.name, kind as 'tools', items as never);
        this.#host.events.emit('catalogue', { server: this.config.name, kinds: [kind] });
      } while (this.#dirty.has(kind));
    };
    const running = run()
      .catch((error: unknown) => this.#host.events.emit('error', { server: this.config.name, error }))
      .finally(() => this.#refreshing.delete(kind));
    this.#refreshing.set(kind, running);
  }

  #list(client: McpClient, kind: CatalogueKind): Promise<unknown[]> {
    const fresh = { fresh: true };
    switch (kind) {
      case 'tools':
        return client.listAllTools(fresh);
      case 'prompts':
        return client.listAllPrompts(fresh);
      case 'resources':
        return client.listAllResources(fresh);
      case 'resourceTemplates':
        return client.listAllResourceTemplates(fresh);
    }
  }

  /** The connection of a ready server ended without the host asking. */
  #lost(client: McpClient, error: unknown): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    const link = this.#link;
    this.#link = undefined;
    void link?.close().catch(() => undefined);
    this.#host.catalogue.clear(this.config.name);
    this.#host.events.emit('catalogue', { server: this.config.name, kinds: KINDS });
    this.#restarts++;
    const reason = error ?? this.#lostReason ?? new Error('the connection closed');
    this.#lostReason = undefined;
    this.#failed(reason);
  }

  #failed(error: unknown): void {
    this.#failures++;
    if (isPermanent(error) || this.#failures >= this.#host.policy.maxAttempts) {
      this.#setState('failed', error);
      return;
    }
    const delay = retryDelay(this.#host.policy, this.#failures, this.#host.options.random);
    this.#retryAt = Date.now() + delay;
    this.#setState('retrying', error);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#settled = this.#connect();
    }, delay);
  }

  #cancelRetry(): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#retryAt = undefined;
  }

  async #disconnect(): Promise<void> {
    this.#attempt++;
    const client = this.#client;
    const link = this.#link;
    this.#client = undefined;
    this.#link = undefined;
    this.#host.catalogue.clear(this.config.name);
    if (client !== undefined) this.#host.events.emit('catalogue', { server: this.config.name, kinds: KINDS });
    await client?.close().catch(() => undefined);
    await link?.close().catch(() => undefined);
  }
}
