import {
  ErrorCode,
  hasCapability,
  invalidRequest,
  LocalError,
  RpcError,
  shouldLog,
  type ClientCapabilities,
  type InputParamsOf,
  type InputRequestMethod,
  type InputResultOf,
  type LogLevel,
  type ProtocolVersion,
  type RequestId,
  type ServerRequestMap,
  type Spec2025_11_25,
} from '@wiremcp/protocol';
import type { MessageInfo } from '@wiremcp/jsonrpc';
import { ContextBase } from './context-base.js';
import type { InputRound } from './input-round.js';
import type { ServerRequestContext } from './server-peer.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, Implementation, ListRootsResult } from './types.js';

/** How one request is served: its era, revision and what the client declared for it. */
export interface RequestScope {
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: ProtocolVersion;
  /** Declared at `initialize` (legacy) or on this request (2026-07-28); the shapes of both revisions. */
  readonly clientCapabilities: Readonly<ClientCapabilities | Spec2025_11_25.ClientCapabilities>;
  readonly clientInfo: Implementation | undefined;
  /** Minimum level of log messages for this request; `undefined` means none are sent. */
  readonly logLevel: LogLevel | undefined;
}

/** What a handler running as a task knows of it. */
export interface TaskInfo {
  /** The task's id, as the client sees it. */
  readonly taskId: string;
  /** What the tool's `execution.beforeTask` returned in the creating request (`undefined` without one). */
  readonly prepared: unknown;
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

/**
 * What a tool, prompt or resource handler receives. The same calls work in both eras: in a legacy session
 * `elicit`, `sample` and `listRoots` send a request to the client and wait for its answer; in a 2026-07-28
 * request they are served from the client's `inputResponses`, or end this round with an input-required result.
 * Handlers that use them must therefore be safe to run again from the start (a retry re-runs the handler; the
 * answers given so far are returned at once).
 */
export interface HandlerContext {
  /** How this request is served. */
  readonly scope: RequestScope;
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** `legacy` (initialize session) or `modern` (2026-07-28, stateless). */
  readonly era: 'legacy' | 'modern';
  /** The revision this request speaks. */
  readonly protocolVersion: ProtocolVersion;
  /** The client's capabilities (declared at initialize, or on this request in 2026-07-28). */
  readonly clientCapabilities: RequestScope['clientCapabilities'];
  /** The client's self-reported identity (not to be used for security decisions). */
  readonly clientInfo: Implementation | undefined;
  /** Aborts when the client cancels the request or the connection (or exchange) closes. */
  readonly signal: AbortSignal;
  /** The request's `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /** Set when the handler runs as a task (see the tool option `execution.taskSupport`); `undefined` otherwise. */
  readonly task?: TaskInfo;
  /** What the transport attached (HTTP headers, session, auth). */
  readonly transportInfo: MessageInfo | undefined;
  /** Reports progress when the client asked for it; a no-op otherwise. `progress` must increase. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a `notifications/message` for this request when the client wants that level: in a legacy session, per
   * `logging/setLevel` (all levels until set); in 2026-07-28, only when the request's `_meta` carried a log level.
   */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the user for input through the client (form or URL mode). Needs the client's `elicitation` capability. */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult>;
  /** Asks the client to sample its model. Needs `sampling` (and `sampling.tools` when `params.tools` is set). */
  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots. Needs the client's `roots` capability. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
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

/**
 * What the negotiated revision lacks for this input request (elicitation arrived in 2025-06-18, URL-mode
 * elicitation and sampling with tools in 2025-11-25), or undefined when it has it. Revision strings are dates,
 * so comparing them orders them.
 */
function missingInRevision(
  method: InputRequestMethod,
  params: { mode?: unknown; tools?: unknown; toolChoice?: unknown },
  version: string,
): string | undefined {
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
 * Why an input request (`elicit`, `sample`, `listRoots`) cannot be sent in `scope`, or `undefined` when it can:
 * the revision lacks it, or the client did not declare the capability at `path` (`-32021` in 2026-07-28).
 */
export function inputRefusal(method: InputRequestMethod, params: unknown, path: readonly string[], scope: RequestScope): Error | undefined {
  const missing = missingInRevision(method, params as { mode?: unknown; tools?: unknown }, scope.protocolVersion);
  if (missing !== undefined) {
    return new LocalError('CAPABILITY_NOT_SUPPORTED', `${missing} does not exist in protocol version ${scope.protocolVersion}`);
  }
  if (hasCapability(scope.clientCapabilities, path)) return undefined;
  const required = path.length > 1 ? { [path[0]!]: { [path[1]!]: {} } } : { [path[0]!]: {} };
  if (scope.era === 'modern') {
    return new RpcError(ErrorCode.MissingRequiredClientCapability, `Server requires the ${path.join('.')} capability for this request`, {
      requiredCapabilities: required,
    });
  }
  return new LocalError('CAPABILITY_NOT_SUPPORTED', `The client did not declare the ${path.join('.')} capability`, { details: required });
}

/** The {@link HandlerContext} of one request (internal: handlers see the interface). */
export class RequestHandlerContext extends ContextBase implements HandlerContext {
  readonly #round: InputRound | undefined;

  constructor(rpc: ServerRequestContext, scope: RequestScope, round: InputRound | undefined) {
    super(rpc, scope);
    this.#round = round;
  }

  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.rpc.sendProgress(progress, total, message);
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const minimum = this.scope.logLevel;
    if (minimum === undefined || !shouldLog(level, minimum)) return Promise.resolve();
    return this.rpc.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
  }

  protected ask<M extends InputRequestMethod>(
    kind: string,
    method: M,
    params: InputParamsOf<M>,
    path: readonly string[],
    options: InputOptions | undefined,
  ): Promise<InputResultOf<M>> {
    const refused = inputRefusal(method, params, path, this.scope);
    if (refused !== undefined) return Promise.reject(refused);
    const round = this.#round;
    if (this.scope.era === 'modern' && !round) {
      // 2026-07-28 has no server→client requests: only the MRTR methods can ask for input.
      return Promise.reject(invalidRequest('Input was requested outside of an input-capable request'));
    }
    if (!round) {
      // A legacy server→client request; the 2025-11-25 shapes are what a legacy client reads (the author gives the
      // revision's own fields, e.g. `elicitationId` in URL mode).
      return this.rpc.request(method, params as unknown as ServerRequestMap[M]['params']) as Promise<InputResultOf<M>>;
    }
    const chosen = options?.key;
    if (chosen !== undefined && (typeof chosen !== 'string' || chosen.length === 0)) {
      return Promise.reject(new LocalError('INVALID_ARGUMENT', 'An input key must be a non-empty string'));
    }
    const key = chosen ?? round.nextKey(kind);
    const answer = round.answers[key];
    if (answer !== undefined) return Promise.resolve(answer as InputResultOf<M>);
    round.ask(key, method, params);
    return Promise.reject(new InputRequiredError(key));
  }
}
