import {
  ErrorCode,
  hasCapability,
  LocalError,
  RpcError,
  shouldLog,
  type LogLevel,
  type ProtocolVersion,
  type RequestId,
} from '@wiremcp/protocol';
import type { MessageInfo, RequestContext } from '@wiremcp/jsonrpc';
import type { Implementation } from './types.js';

/** How one request is served: its era, revision and what the client declared for it. */
export interface RequestScope {
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: ProtocolVersion;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo: Implementation | undefined;
  /** Minimum level of log messages for this request; `undefined` means none are sent. */
  readonly logLevel: LogLevel | undefined;
}

/** Options of one input request (`elicit`, `sample`, `listRoots`). */
export interface InputOptions {
  /**
   * The key of this input in a 2026-07-28 input-required result (`inputRequests`, then the client's
   * `inputResponses`). Default: a generated key (`elicit-0`, `sample-1`, …). A chosen key must be unique within
   * the request and the same on every retry. Ignored in legacy sessions, where the input is a direct request.
   */
  key?: string;
}

/** A request the server needs the client to fulfil: elicitation, sampling or roots. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
}

/**
 * Thrown by `elicit`/`sample`/`listRoots` in the 2026-07-28 era when the answer is not available yet: the server
 * answers the request with an input-required result and the client retries with the answer. Handlers should let
 * it propagate; a handler that swallows it still gets an input-required answer.
 */
export class InputRequiredError extends Error {
  constructor(readonly key: string) {
    super(`Input '${key}' is required from the client; the request will be retried with it`);
    this.name = 'InputRequiredError';
  }
}

/** Per-request MRTR bookkeeping: answers available in this round and inputs asked for. */
export class InputRound {
  readonly requested: Record<string, InputRequest> = {};
  count = 0;
  #index = 0;
  constructor(readonly answers: Record<string, unknown>) {}
  nextKey(kind: string): string {
    return `${kind}-${this.#index++}`;
  }
}

/** The server-side services a context delegates to. */
export interface ContextServices {
  sendLog(scope: RequestScope, rpc: RequestContext, level: LogLevel, data: unknown, logger: string | undefined): Promise<void>;
}

/**
 * What the negotiated revision lacks for this input request (elicitation arrived in 2025-06-18, URL-mode
 * elicitation and sampling with tools in 2025-11-25), or undefined when it has it. Revision strings are dates,
 * so comparing them orders them.
 */
function missingInRevision(method: InputRequest['method'], params: Record<string, unknown>, version: string): string | undefined {
  if (method === 'elicitation/create') {
    if (version < '2025-06-18') return 'Elicitation';
    if (params.mode === 'url' && version < '2025-11-25') return 'URL-mode elicitation';
  } else if (
    method === 'sampling/createMessage' &&
    (params.tools !== undefined || params.toolChoice !== undefined) &&
    version < '2025-11-25'
  ) {
    return 'Sampling with tools';
  }
  return undefined;
}

/**
 * What a tool, prompt or resource handler receives. The same calls work in both eras: in a legacy session
 * `elicit`, `sample` and `listRoots` send a request to the client and wait for its answer; in a 2026-07-28
 * request they are served from the client's `inputResponses`, or end this round with an input-required result.
 * Handlers that use them must therefore be safe to run again from the start (a retry re-runs the handler; the
 * answers given so far are returned at once).
 */
export class HandlerContext {
  readonly #rpc: RequestContext;
  readonly #services: ContextServices;
  readonly #round: InputRound | undefined;
  /** How this request is served. */
  readonly scope: RequestScope;

  constructor(rpc: RequestContext, scope: RequestScope, services: ContextServices, round: InputRound | undefined) {
    this.#rpc = rpc;
    this.scope = scope;
    this.#services = services;
    this.#round = round;
  }

  /** The JSON-RPC id of the request. */
  get requestId(): RequestId {
    return this.#rpc.id;
  }

  /** `legacy` (initialize session) or `modern` (2026-07-28, stateless). */
  get era(): 'legacy' | 'modern' {
    return this.scope.era;
  }

  /** The revision this request speaks. */
  get protocolVersion(): ProtocolVersion {
    return this.scope.protocolVersion;
  }

  /** The client's capabilities (declared at initialize, or on this request in 2026-07-28). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this.scope.clientCapabilities;
  }

  /** The client's self-reported identity (not to be used for security decisions). */
  get clientInfo(): Implementation | undefined {
    return this.scope.clientInfo;
  }

  /** Aborts when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.#rpc.signal;
  }

  /** The request's `_meta`. */
  get meta(): Record<string, unknown> | undefined {
    return this.#rpc.meta;
  }

  /** What the transport attached (HTTP headers, session, auth). */
  get transportInfo(): MessageInfo | undefined {
    return this.#rpc.info;
  }

  /** Reports progress when the client asked for it; a no-op otherwise. `progress` must increase. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#rpc.sendProgress(progress, total, message);
  }

  /**
   * Sends a `notifications/message` for this request when the client wants that level: in a legacy session, per
   * `logging/setLevel` (all levels until set); in 2026-07-28, only when the request's `_meta` carried a log level.
   */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const minimum = this.scope.logLevel;
    if (minimum === undefined || !shouldLog(level, minimum)) return Promise.resolve();
    return this.#services.sendLog(this.scope, this.#rpc, level, data, logger);
  }

  /** Asks the user for input through the client (form or URL mode). Needs the client's `elicitation` capability. */
  elicit(params: Record<string, unknown>, options?: InputOptions): Promise<Record<string, unknown>> {
    const url = params.mode === 'url';
    return this.#ask('elicit', 'elicitation/create', params, url ? ['elicitation', 'url'] : ['elicitation'], 'elicitation', options);
  }

  /** Asks the client to sample its model. Needs `sampling` (and `sampling.tools` when `params.tools` is set). */
  sample(params: Record<string, unknown>, options?: InputOptions): Promise<Record<string, unknown>> {
    const path = params.tools !== undefined ? ['sampling', 'tools'] : ['sampling'];
    return this.#ask('sample', 'sampling/createMessage', params, path, 'sampling', options);
  }

  /** Asks the client for its roots. Needs the client's `roots` capability. */
  listRoots(options?: InputOptions): Promise<{ roots: Array<{ uri: string; name?: string }> }> {
    return this.#ask('roots', 'roots/list', {}, ['roots'], 'roots', options) as Promise<{ roots: Array<{ uri: string; name?: string }> }>;
  }

  #ask(
    kind: string,
    method: InputRequest['method'],
    params: Record<string, unknown>,
    path: readonly string[],
    name: string,
    options: InputOptions | undefined,
  ): Promise<Record<string, unknown>> {
    const missing = missingInRevision(method, params, this.scope.protocolVersion);
    if (missing !== undefined) {
      return Promise.reject(
        new LocalError('CAPABILITY_NOT_SUPPORTED', `${missing} does not exist in protocol version ${this.scope.protocolVersion}`),
      );
    }
    if (!hasCapability(this.scope.clientCapabilities, path)) {
      const required = path.length > 1 ? { [path[0]!]: { [path[1]!]: {} } } : { [name]: {} };
      if (this.scope.era === 'modern') {
        return Promise.reject(
          new RpcError(ErrorCode.MissingRequiredClientCapability, `Server requires the ${path.join('.')} capability for this request`, {
            requiredCapabilities: required,
          }),
        );
      }
      return Promise.reject(
        new LocalError('CAPABILITY_NOT_SUPPORTED', `The client did not declare the ${path.join('.')} capability`, { details: required }),
      );
    }
    const round = this.#round;
    if (this.scope.era === 'legacy' || !round) {
      return this.#rpc.request(method, params) as Promise<Record<string, unknown>>;
    }
    const chosen = options?.key;
    if (chosen !== undefined && (typeof chosen !== 'string' || chosen.length === 0)) {
      return Promise.reject(new LocalError('INVALID_ARGUMENT', 'An input key must be a non-empty string'));
    }
    const key = chosen ?? round.nextKey(kind);
    const answer = round.answers[key];
    if (answer !== undefined) return Promise.resolve(answer as Record<string, unknown>);
    round.requested[key] = { method, params };
    round.count += 1;
    return Promise.reject(new InputRequiredError(key));
  }
}
