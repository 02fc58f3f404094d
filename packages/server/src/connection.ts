import {
  ErrorCode,
  hasCapability,
  invalidParams,
  invalidRequest,
  isLogLevel,
  MetaKey,
  methodNotFound,
  negotiateLegacyVersion,
  RpcError,
  serverCapabilityPath,
  supportsBatching,
  type LegacyProtocolVersion,
  type LogLevel,
  type RequestId,
} from '@wiremcp/protocol';
import { Peer, type RequestContext, type Transport } from '@wiremcp/jsonrpc';
import { implementationFor } from './capabilities.js';
import { HandlerContext, InputRequiredError, InputRound, type RequestScope } from './handler-context.js';
import { isModernMeta, LEGACY_ONLY_METHODS, MODERN_ONLY_METHODS, modernScope, stampModernResult } from './modern.js';
import { ResourceNotFoundError } from './resource-registry.js';
import { resultForRevision } from './revision-content.js';
import type { ServerCore } from './server-core.js';
import type { Implementation } from './types.js';

/** The state of a legacy (initialize) session on one connection. */
export interface LegacySession extends RequestScope {
  readonly era: 'legacy';
  readonly protocolVersion: LegacyProtocolVersion;
  logLevel: LogLevel | undefined;
  /** True once `notifications/initialized` arrived. */
  initialized: boolean;
  /** The server capabilities announced in the initialize result. */
  readonly serverCapabilities: Readonly<Record<string, unknown>>;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions: Set<string>;
}

/** A 2026-07-28 `subscriptions/listen` stream open on this connection. */
interface ListenStream {
  readonly id: RequestId;
  readonly toolsListChanged: boolean;
  readonly promptsListChanged: boolean;
  readonly resourcesListChanged: boolean;
  readonly resources: ReadonlySet<string>;
  readonly rpc: RequestContext;
  /** Ends the stream: its response is sent; with a reason, `notifications/cancelled` for it goes first. */
  end(reason?: string): void;
}

const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

type Params = Record<string, unknown> | undefined;

/**
 * One transport connected to a server: a JSON-RPC peer plus, for legacy clients, the session opened by
 * `initialize`. Requests carrying the 2026-07-28 `_meta` are served statelessly on the same connection.
 */
export class ServerConnection {
  /** The JSON-RPC engine of this connection. */
  readonly peer: Peer;
  /** The legacy session, once `initialize` succeeded. */
  session: LegacySession | undefined;
  readonly #server: ServerCore;
  readonly #listens = new Map<RequestId, ListenStream>();

  constructor(server: ServerCore, peer: Peer) {
    this.#server = server;
    this.peer = peer;
    peer.setFallbackRequestHandler((method, params, rpc) => this.#handle(method, params, rpc));
    peer.setNotificationHandler('notifications/initialized', () => {
      if (this.session) {
        this.session.initialized = true;
        this.#server.emitInitialized(this);
      }
    });
    peer.setNotificationHandler('notifications/roots/list_changed', () => {
      if (this.session) this.#server.emitRootsListChanged(this);
    });
    // stdin EOF is a stdio client asking the server to shut down; stdout is still read until the server exits.
    peer.oninputend = () => this.#endListens('the server is shutting down');
  }

  /**
   * Tears down every open listen stream: the spec asks a server that tears one down to send
   * `notifications/cancelled` for the listen request (stdio) and, when ending gracefully, its response.
   */
  #endListens(reason: string): void {
    for (const stream of [...this.#listens.values()]) stream.end(reason);
  }

  /** Connects the peer to `transport`. */
  async start(transport: Transport): Promise<void> {
    await this.peer.connect(transport);
  }

  /**
   * Ends open listen streams (`notifications/cancelled`, then each one's response), waits briefly for requests in
   * progress, then closes the transport.
   */
  async close(graceMs = 1000): Promise<void> {
    this.#endListens('the server is closing');
    if (this.peer.inflightCount > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.peer.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await this.peer.close();
  }

  #handle(method: string, params: Params, rpc: RequestContext): unknown {
    const meta = params?._meta;
    if (isModernMeta(meta) || MODERN_ONLY_METHODS.has(method)) {
      const scope = modernScope(meta as Record<string, unknown> | undefined, this.#server.modernVersions, this.#server.versions);
      if (LEGACY_ONLY_METHODS.has(method))
        throw methodNotFound(method, { reason: `'${method}' does not exist in ${scope.protocolVersion}` });
      return this.#modern(method, params, scope, rpc);
    }
    if (method === 'initialize') return this.#initialize(params, rpc);
    const session = this.session;
    if (!session) {
      if (method === 'ping') return {};
      throw invalidParams(
        `No session: send 'initialize' first (legacy revisions), or put "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}" in params._meta (2026-07-28)`,
      );
    }
    return this.#route(method, params, session, rpc, undefined);
  }

  #modern(method: string, params: Params, scope: RequestScope, rpc: RequestContext): unknown {
    const info = this.#server.info;
    const cache = this.#server.cacheHint(method);
    if (INPUT_METHODS.has(method) && (params?.requestState !== undefined || params?.inputResponses !== undefined)) {
      return this.#retryWithInputs(method, params, scope, rpc).then((result) => stampModernResult(result, info, cache));
    }
    const round = INPUT_METHODS.has(method) ? new InputRound({}) : undefined;
    const outcome = this.#routeWithInputs(method, params, scope, rpc, round);
    if (outcome instanceof Promise) return outcome.then((result) => stampModernResult(result, info, cache));
    return stampModernResult(outcome, info, cache);
  }

  /**
   * A retry carrying `inputResponses` and/or `requestState`. A state must verify (integrity, same request,
   * not expired) and brings the answers of earlier rounds; answers are taken only for the keys that state asked
   * for. Without a state (a client that answers up front, or lost it), the answers count as first-round
   * answers: they are the client's to give either way, and a handler asks again for anything missing.
   */
  async #retryWithInputs(method: string, params: Params, scope: RequestScope, rpc: RequestContext): Promise<Record<string, unknown>> {
    const responses = params?.inputResponses;
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
      throw invalidParams('Invalid params: inputResponses must be an object');
    }
    const given = (responses ?? {}) as Record<string, unknown>;
    if (params?.requestState === undefined) {
      return this.#routeWithInputs(method, params, scope, rpc, new InputRound({ ...given }));
    }
    const state = await this.#server.requestState.verify(params.requestState, method, params);
    const answers: Record<string, unknown> = { ...state.a };
    for (const key of state.k) {
      if (given[key] !== undefined) answers[key] = given[key];
    }
    return this.#routeWithInputs(method, params, scope, rpc, new InputRound(answers));
  }

  #routeWithInputs(
    method: string,
    params: Params,
    scope: RequestScope,
    rpc: RequestContext,
    round: InputRound | undefined,
  ): Record<string, unknown> | Promise<Record<string, unknown>> {
    let outcome: unknown;
    try {
      outcome = this.#route(method, params, scope, rpc, round);
    } catch (error) {
      return this.#inputOrThrow(method, params, round, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (result: Record<string, unknown>) => (round && round.count > 0 ? this.#inputRequired(method, params, round) : result),
        (error: unknown) => this.#inputOrThrow(method, params, round, error),
      );
    }
    if (round && round.count > 0) return this.#inputRequired(method, params, round);
    return outcome as Record<string, unknown>;
  }

  #inputOrThrow(method: string, params: Params, round: InputRound | undefined, error: unknown): Promise<Record<string, unknown>> {
    if (round && round.count > 0) return this.#inputRequired(method, params, round);
    if (error instanceof InputRequiredError) throw invalidRequest('Input was requested outside of an input-capable request');
    throw error;
  }

  async #inputRequired(method: string, params: Params, round: InputRound): Promise<Record<string, unknown>> {
    const keys = Object.keys(round.requested);
    const requestState = await this.#server.requestState.sign(method, params, keys, round.answers);
    return { resultType: 'input_required', inputRequests: round.requested, requestState };
  }

  /** Runs a method for a scope: capability gates, then the built-in or custom handler. */
  #route(method: string, params: Params, scope: RequestScope, rpc: RequestContext, round: InputRound | undefined): any {
    const server = this.#server;
    const custom = server.customHandler(method);
    if (custom) return custom(params, new HandlerContext(rpc, scope, server, round));
    const gate = serverCapabilityPath(method, scope.protocolVersion);
    if (gate) {
      const caps = scope.era === 'legacy' ? (scope as LegacySession).serverCapabilities : server.capabilitiesFor(scope.protocolVersion);
      if (!hasCapability(caps, gate))
        throw methodNotFound(method, { reason: `the server does not declare the '${gate.join('.')}' capability` });
    }
    switch (method) {
      case 'tools/call': {
        const outcome = server.tools.call(params, new HandlerContext(rpc, scope, server, round));
        return scope.protocolVersion >= '2025-06-18' ? outcome : this.#forRevision(outcome, scope.protocolVersion);
      }
      case 'tools/list': {
        const { page, nextCursor } = server.page('tools', server.tools.list(), params?.cursor);
        return nextCursor === undefined ? { tools: page } : { tools: page, nextCursor };
      }
      case 'resources/read':
        return this.#read(params, new HandlerContext(rpc, scope, server, round));
      case 'resources/list':
        return server.resources.list().then((all) => {
          const { page, nextCursor } = server.page('resources', all, params?.cursor);
          return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
        });
      case 'resources/templates/list': {
        const { page, nextCursor } = server.page('templates', server.resources.listTemplates(), params?.cursor);
        return nextCursor === undefined ? { resourceTemplates: page } : { resourceTemplates: page, nextCursor };
      }
      case 'prompts/get': {
        const outcome = server.prompts.get(params, new HandlerContext(rpc, scope, server, round));
        return scope.protocolVersion >= '2025-06-18' ? outcome : this.#forRevision(outcome, scope.protocolVersion);
      }
      case 'prompts/list': {
        const { page, nextCursor } = server.page('prompts', server.prompts.list(), params?.cursor);
        return nextCursor === undefined ? { prompts: page } : { prompts: page, nextCursor };
      }
      case 'completion/complete':
        return server.complete(params);
      case 'server/discover':
        return server.discover();
      case 'subscriptions/listen':
        return this.#listen(params, scope, rpc);
      case 'ping':
        return {};
      case 'logging/setLevel':
        return this.#setLevel(params, scope as LegacySession);
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = params?.uri;
        if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
        if (method === 'resources/subscribe') (scope as LegacySession).subscriptions.add(uri);
        else (scope as LegacySession).subscriptions.delete(uri);
        return {};
      }
      default:
        throw methodNotFound(method);
    }
  }

  /** A tool or prompt result adapted to an older revision's content blocks. */
  #forRevision<T extends object>(outcome: T | Promise<T>, version: string): T | Promise<T> {
    return outcome instanceof Promise ? outcome.then((result) => resultForRevision(result, version)) : resultForRevision(outcome, version);
  }

  #read(params: Params, context: HandlerContext): unknown {
    const era = context.era;
    try {
      const outcome = this.#server.resources.read(params, context);
      if (outcome instanceof Promise) {
        return outcome.catch((error: unknown) => {
          throw error instanceof ResourceNotFoundError ? error.toRpcError(era) : error;
        });
      }
      return outcome;
    } catch (error) {
      throw error instanceof ResourceNotFoundError ? error.toRpcError(era) : error;
    }
  }

  #initialize(params: Params, rpc: RequestContext): Record<string, unknown> {
    if (rpc.info?.inBatch) throw invalidRequest('Invalid request: initialize must not be part of a JSON-RPC batch');
    if (this.session) throw invalidRequest('Invalid request: this connection is already initialized');
    const requested = params?.protocolVersion;
    if (typeof requested !== 'string') throw invalidParams('Invalid params: "protocolVersion" must be a string');
    const capabilities = params?.capabilities;
    if (capabilities !== undefined && (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))) {
      throw invalidParams('Invalid params: "capabilities" must be an object');
    }
    const server = this.#server;
    if (server.legacyVersions.length === 0) {
      // A modern-only server: this error is a legacy client's only diagnostic, so it names what is spoken.
      throw new RpcError(
        ErrorCode.UnsupportedProtocolVersion,
        `Unsupported protocol version: this server speaks ${server.versions.join(', ')} only (no initialize)`,
        {
          supported: [...server.versions].reverse(),
          requested,
        },
      );
    }
    const version = negotiateLegacyVersion(requested, server.legacyVersions);
    const serverCapabilities = server.capabilitiesFor(version);
    const clientInfo = params?.clientInfo;
    this.session = {
      era: 'legacy',
      protocolVersion: version,
      clientCapabilities: (capabilities ?? {}) as Record<string, unknown>,
      clientInfo: typeof clientInfo === 'object' && clientInfo !== null ? (clientInfo as Implementation) : undefined,
      // Until the client calls logging/setLevel, every level is sent.
      logLevel: 'debug',
      initialized: false,
      serverCapabilities,
      subscriptions: new Set(),
    };
    this.peer.acceptBatches = supportsBatching(version);
    server.scheduleWarmUp();
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: serverCapabilities,
      serverInfo: implementationFor(server.info, version),
    };
    if (server.instructions !== undefined) result.instructions = server.instructions;
    return result;
  }

  #setLevel(params: Params, session: LegacySession): Record<string, unknown> {
    const level = params?.level;
    if (!isLogLevel(level)) throw invalidParams(`Invalid params: unknown log level ${JSON.stringify(level)}`);
    session.logLevel = level;
    return {};
  }

  #listen(params: Params, scope: RequestScope, rpc: RequestContext): Promise<Record<string, unknown>> {
    const requested = (params?.notifications ?? {}) as Record<string, unknown>;
    if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
      throw invalidParams('Invalid params: "notifications" must be an object');
    }
    const caps = this.#server.capabilitiesFor(scope.protocolVersion);
    const honoured: Record<string, unknown> = {};
    const wants = (key: string, path: string[]): boolean =>
      requested[key] === true && hasCapability(caps, path) && ((honoured[key] = true), true);
    const tools = wants('toolsListChanged', ['tools', 'listChanged']);
    const prompts = wants('promptsListChanged', ['prompts', 'listChanged']);
    const resourcesList = wants('resourcesListChanged', ['resources', 'listChanged']);
    let resources: string[] = [];
    if (Array.isArray(requested.resourceSubscriptions) && hasCapability(caps, ['resources', 'subscribe'])) {
      resources = requested.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string');
      honoured.resourceSubscriptions = resources;
    }
    const subscriptionMeta = { [MetaKey.subscriptionId]: rpc.id };
    return new Promise((resolve) => {
      const stream: ListenStream = {
        id: rpc.id,
        toolsListChanged: tools,
        promptsListChanged: prompts,
        resourcesListChanged: resourcesList,
        resources: new Set(resources),
        rpc,
        end: (reason) => {
          if (!this.#listens.delete(rpc.id)) return;
          if (reason !== undefined && !rpc.cancelled) {
            rpc.notify('notifications/cancelled', { requestId: rpc.id, reason }).catch(() => {});
          }
          resolve({ _meta: subscriptionMeta });
        },
      };
      this.#listens.set(rpc.id, stream);
      rpc.signal.addEventListener('abort', () => stream.end(), { once: true });
      rpc.notify('notifications/subscriptions/acknowledged', { _meta: subscriptionMeta, notifications: honoured }).catch(() => {});
    });
  }

  /** Announces a list change to this connection's legacy session and matching listen streams. */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    const session = this.session;
    if (session?.initialized && hasCapability(session.serverCapabilities, [kind, 'listChanged'])) {
      this.peer.notify(method).catch(() => {});
    }
    for (const stream of this.#listens.values()) {
      const wanted =
        kind === 'tools' ? stream.toolsListChanged : kind === 'prompts' ? stream.promptsListChanged : stream.resourcesListChanged;
      if (wanted) stream.rpc.notify(method, { _meta: { [MetaKey.subscriptionId]: stream.id } }).catch(() => {});
    }
  }

  /** Announces that `uri` changed to subscribers on this connection. */
  notifyResourceUpdated(uri: string): void {
    const session = this.session;
    if (session?.subscriptions.has(uri)) {
      this.peer.notify('notifications/resources/updated', { uri }).catch(() => {});
    }
    for (const stream of this.#listens.values()) {
      if (stream.resources.has(uri)) {
        stream.rpc.notify('notifications/resources/updated', { _meta: { [MetaKey.subscriptionId]: stream.id }, uri }).catch(() => {});
      }
    }
  }

  /** Sends a log message to the legacy session, when it wants that level (server-wide logging). */
  logToSession(level: LogLevel, data: unknown, logger: string | undefined, allowed: (minimum: LogLevel) => boolean): void {
    const session = this.session;
    if (!session?.logLevel || !hasCapability(session.serverCapabilities, ['logging']) || !allowed(session.logLevel)) return;
    this.peer.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data }).catch(() => {});
  }
}
