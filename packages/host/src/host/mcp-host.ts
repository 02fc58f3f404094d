/**
 * `McpHost`: the host role. It owns one client connection per configured server, connects them all at once, keeps
 * each alive on its own (a server that fails to start or dies is retried with backoff and takes no other server
 * down), merges what they offer into one namespaced catalogue, asks the consent hook before every tool call, routes
 * calls, reads and prompts to the right server, and answers every server's sampling, elicitation and roots requests
 * with one handler each.
 */
import type { CallOptions, CallToolResult, GetPromptResult, McpClient, ReadResourceResult } from '@wiremcp/client';
import { LocalError, quoteInput } from '@wiremcp/protocol';
import { Catalogue, type HostTool } from '../catalogue/catalogue.js';
import { createRedactor } from '../config/redact.js';
import type { HostConfig, ServerConfig } from '../config/types.js';
import { restartPolicy } from './backoff.js';
import { TypedEvents, type Unsubscribe } from './events.js';
import { HostError } from './host-error.js';
import { ManagedServer, type ServerHost } from './managed-server.js';
import { hostAuthStore } from './server-link.js';
import { ModelTools, type ModelToolsOptions } from '../llm/model-tools.js';
import type { ModelApi } from '../llm/declarations.js';
import type { ConsentDecision, HostEvents, HostRoot, McpHostOptions, ServerStatus, ToolCallRequest } from './types.js';

/** Options of a call routed by the host: the client's call options. */
export type HostCallOptions = CallOptions;

/** Options of {@link McpHost.readResource}. */
export interface ReadOptions extends CallOptions {
  /** The server to read from (needed when several servers offer the URI). */
  readonly server?: string;
}

function hintsOf(tool: HostTool['tool']): ToolCallRequest['hints'] {
  const a = tool.annotations ?? {};
  const readOnly = a.readOnlyHint === true;
  return {
    readOnly,
    // The spec's defaults: a tool may change things and reach the outside world unless it says otherwise.
    destructive: !readOnly && a.destructiveHint !== false,
    idempotent: a.idempotentHint === true,
    openWorld: a.openWorldHint !== false,
  };
}

/** See the module comment. Create it, `start()` it, use it, `close()` it (or `await using host = …`). */
export class McpHost implements AsyncDisposable {
  /** The merged catalogue (tools and prompts by namespaced name; resources and templates with their server). */
  readonly catalogue: Catalogue;
  /** What loading the configuration warned about. */
  readonly warnings: readonly string[];
  readonly #servers = new Map<string, ManagedServer>();
  readonly #events: TypedEvents<HostEvents>;
  readonly #options: McpHostOptions;
  readonly #redact: (text: string) => string;
  #roots: readonly HostRoot[];
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(config: HostConfig | readonly ServerConfig[], options: McpHostOptions = {}) {
    const servers = Array.isArray(config) ? (config as readonly ServerConfig[]) : (config as HostConfig).servers;
    this.warnings = Array.isArray(config) ? [] : (config as HostConfig).warnings;
    this.#options = options;
    this.#roots = options.roots ?? [];
    this.catalogue = new Catalogue(options.separator ?? '.');
    this.#events = new TypedEvents<HostEvents>((error) => {
      // A listener of `error` that throws must not loop.
      queueMicrotask(() => {
        throw error;
      });
    });
    this.#redact = createRedactor(servers.flatMap((server) => server.secrets));
    const context: ServerHost = {
      options,
      policy: restartPolicy(options.restart),
      catalogue: this.catalogue,
      events: this.#events,
      link: { options, authStore: hostAuthStore(options) },
      redact: this.#redact,
      roots: () => this.#roots,
    };
    servers.forEach((server, order) => {
      if (this.#servers.has(server.name)) throw new RangeError(`two servers are named ${JSON.stringify(server.name)}`);
      const filters = { tools: server.tools, prompts: server.prompts, resources: server.resources, ...options.filters?.[server.name] };
      this.catalogue.addServer(server.name, order, filters);
      this.#servers.set(server.name, new ManagedServer(server, context));
    });
  }

  /** The servers' names, in configuration order. */
  get serverNames(): string[] {
    return [...this.#servers.keys()];
  }

  /**
   * Connects every enabled server, concurrently. Resolves once each has settled — connected, failed, or waiting for
   * a retry — and never rejects because of a server: see {@link status} and the `state` event.
   */
  async start(): Promise<void> {
    this.#assertOpen();
    await Promise.all([...this.#servers.values()].map((server) => server.start()));
  }

  /** Listens to the host's events (see {@link HostEvents}); returns the remover. */
  on<K extends keyof HostEvents>(event: K, listener: (payload: HostEvents[K]) => void): Unsubscribe {
    return this.#events.on(event, listener);
  }

  /** The status table: one row per server, in configuration order. */
  status(): ServerStatus[] {
    return [...this.#servers.values()].map((server) => server.status());
  }

  /** The connected client of a server (`undefined` unless it is ready): for what the host does not wrap. */
  client(server: string): McpClient | undefined {
    return this.#server(server).client;
  }

  /** The configuration of a server (it holds resolved secrets: print it with `describeServerConfig`). */
  config(server: string): ServerConfig {
    return this.#server(server).config;
  }

  /** Resolves once every server's current attempt has settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((server) => server.settled()));
  }

  /** Connects a server again now (stopping its process or connection first), forgetting its failures. */
  restart(server: string): Promise<void> {
    this.#assertOpen();
    return this.#server(server).restart();
  }

  /**
   * Calls a tool by its namespaced name. The consent hook is asked first (a refusal rejects with `CONSENT_DENIED`);
   * cancellation (`signal`), progress (`onprogress`) and timeouts pass through to the server. Rejects with
   * `UNKNOWN_NAME`, `SERVER_UNAVAILABLE`, or the client's `RpcError`/`LocalError`; a tool's own failure resolves
   * with `isError: true`.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: HostCallOptions = {}): Promise<CallToolResult> {
    this.#assertOpen();
    const entry = this.catalogue.tool(name);
    if (entry === undefined) throw this.#unknown('tool', name);
    const client = this.#ready(entry.server);
    let callArgs = args;
    const consent = this.#options.consent;
    if (consent !== undefined) {
      const tool = entry.tool;
      const decision: ConsentDecision = await consent({
        server: entry.server,
        tool: tool.name,
        name,
        arguments: args,
        hints: hintsOf(tool),
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const allowed = typeof decision === 'boolean' ? decision : decision.allow;
      if (!allowed) {
        const reason = typeof decision === 'object' && !decision.allow && decision.reason ? `: ${decision.reason}` : '';
        throw new HostError('CONSENT_DENIED', `the call of ${name} was not allowed${reason}`, { server: entry.server });
      }
      if (typeof decision === 'object' && decision.allow && decision.arguments !== undefined) callArgs = decision.arguments;
    }
    return this.#routed(entry.server, client, client.callTool(entry.tool.name, callArgs, options));
  }

  /** Gets a prompt by its namespaced name. */
  getPrompt(name: string, args?: Record<string, string>, options: HostCallOptions = {}): Promise<GetPromptResult> {
    this.#assertOpen();
    const entry = this.catalogue.prompt(name);
    if (entry === undefined) return Promise.reject(this.#unknown('prompt', name));
    const client = this.#ready(entry.server);
    return this.#routed(entry.server, client, client.getPrompt(entry.prompt.name, args, options));
  }

  /**
   * Reads a resource. The server is `options.server`, else the one server listing the URI or offering a template it
   * fits; several candidates reject with `AMBIGUOUS_NAME` (name the server), none with `UNKNOWN_NAME`.
   */
  readResource(uri: string, options: ReadOptions = {}): Promise<ReadResourceResult> {
    this.#assertOpen();
    const { server: named, ...call } = options;
    let server = named;
    if (server === undefined) {
      const candidates = this.catalogue.serversForUri(uri);
      if (candidates.length > 1)
        return Promise.reject(
          new HostError('AMBIGUOUS_NAME', `${candidates.length} servers offer ${quoteInput(uri)} (${candidates.join(', ')}): name one`),
        );
      server = candidates[0];
      if (server === undefined) return Promise.reject(this.#unknown('resource', uri));
    } else if (!this.catalogue.allowsUri(this.#server(server).config.name, uri)) {
      return Promise.reject(
        new HostError('UNKNOWN_NAME', `server ${JSON.stringify(server)} does not offer ${quoteInput(uri)}`, { server }),
      );
    }
    const client = this.#ready(server);
    return this.#routed(server, client, client.readResource(uri, call));
  }

  /**
   * The catalogue's tools for one LLM API (`anthropic`, `openai-chat`, `openai-responses`, `gemini`): declarations,
   * and `call()` for the model's tool calls (routed through this host and its consent hook). A snapshot: call its
   * `refresh()` on the `catalogue` event.
   */
  modelTools(api: ModelApi, options: ModelToolsOptions = {}): ModelTools {
    return new ModelTools(this, api, options);
  }

  /** The roots servers see (without a `roots` handler). */
  get roots(): readonly HostRoot[] {
    return this.#roots;
  }

  /** Changes the roots and tells every connected server (legacy servers get `notifications/roots/list_changed`). */
  async setRoots(roots: readonly HostRoot[]): Promise<void> {
    this.#assertOpen();
    this.#roots = [...roots];
    await this.notifyRootsChanged();
  }

  /** Tells every connected server its roots changed (after a change the `roots` handler now answers differently). */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(
      [...this.#servers.values()].map((server) =>
        server.rootsChanged().catch((error: unknown) => this.#events.emit('error', { server: server.config.name, error })),
      ),
    );
  }

  /** Stops every server (processes stopped, connections closed, retries cancelled) and removes every listener. Idempotent. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    this.#closing = Promise.all([...this.#servers.values()].map((server) => server.close())).then(() => this.#events.clear());
    return this.#closing;
  }

  /** `await using host = new McpHost(…)` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new HostError('HOST_CLOSED', 'the host is closed');
  }

  #server(name: string): ManagedServer {
    const server = this.#servers.get(name);
    if (server === undefined) throw new HostError('UNKNOWN_SERVER', `no server is named ${JSON.stringify(name)}`);
    return server;
  }

  #ready(name: string): McpClient {
    const server = this.#server(name);
    const client = server.client;
    if (client !== undefined) return client;
    const status = server.status();
    const why = status.lastError === undefined ? '' : `: ${status.lastError}`;
    throw new HostError('SERVER_UNAVAILABLE', `server ${JSON.stringify(name)} is ${status.state}${why}`, { server: name });
  }

  /** `UNKNOWN_NAME`, or `SERVER_UNAVAILABLE` when the name is in the namespace of a server that is not ready. */
  #unknown(kind: string, name: string): HostError {
    const separator = this.catalogue.separator;
    for (const [serverName, server] of this.#servers) {
      if (name.startsWith(`${serverName}${separator}`) && server.state !== 'ready') {
        const status = server.status();
        const why = status.lastError === undefined ? '' : `: ${status.lastError}`;
        return new HostError('SERVER_UNAVAILABLE', `server ${JSON.stringify(serverName)} is ${status.state}${why}`, { server: serverName });
      }
    }
    return new HostError('UNKNOWN_NAME', `no ${kind} is named ${quoteInput(name)}`);
  }

  /**
   * A routed call's failure: the server learns of it (a lost connection is reconnected), and failures of this side (a
   * server's exit message quotes its command line) never show a configured secret.
   */
  #routed<T>(server: string, client: McpClient, promise: Promise<T>): Promise<T> {
    return promise.catch((error: unknown) => {
      this.#servers.get(server)?.callFailed(client, error);
      if (error instanceof LocalError) error.message = this.#redact(error.message);
      throw error;
    });
  }
}
