/**
 * The options of {@link McpClient} and of its calls, and the signatures of the input handlers.
 */
import type { Era, ProtocolVersion, RequestId } from '@wiremcp/protocol';
import type { Instrumentation, Progress } from '@wiremcp/jsonrpc';
import type { SchemaCompiler } from '@wiremcp/json-schema';
import type { EraCache } from './era-cache.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  JsonObject,
  ListRootsResult,
  Meta,
} from './types.js';

/** What every input handler receives besides the request's params. */
export interface InputContext {
  /**
   * Aborts when the work is no longer wanted: the server cancelled its request (legacy), the caller aborted the
   * call that needed the input (modern), or the connection closed.
   */
  readonly signal: AbortSignal;
  /** The era of the connection: `legacy` (server→client request) or `modern` (input-required round). */
  readonly era: Era;
  /** The negotiated revision. */
  readonly protocolVersion: string;
  /** Legacy: the id of the server's request. */
  readonly requestId?: RequestId;
  /** Modern: the key of this input in `inputRequests`, and the call that needs it. */
  readonly inputKey?: string;
  /** Modern: the request whose result asked for this input (`tools/call`, `prompts/get`, `resources/read`). */
  readonly origin?: { readonly method: string; readonly params: JsonObject };
}

/** Answers `sampling/createMessage`: runs the model and returns its message. */
export type SamplingHandler = (params: CreateMessageParams, context: InputContext) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `elicitation/create`: asks the user and returns their answer. */
export type ElicitationHandler = (params: ElicitParams, context: InputContext) => ElicitResult | Promise<ElicitResult>;

/** Answers `roots/list`: the roots the client exposes. */
export type RootsHandler = (context: InputContext) => ListRootsResult | Promise<ListRootsResult>;

/** The input handlers of a client; each one given also declares its capability. */
export interface InputHandlers {
  sampling?: SamplingHandler;
  elicitation?: ElicitationHandler;
  roots?: RootsHandler;
}

/** How the client handles elicitation, besides the host's handler. */
export interface ElicitationOptions {
  /**
   * Declare and accept URL-mode elicitation (2025-11-25 and later; default false). Opt in only when the host meets
   * the URL mode's obligations: show the full URL, ask before opening it, never open it on its own.
   */
  url?: boolean;
  /** Fill in the schema's `default` of every field an accepted form leaves out (SEP-1034; default true). */
  applyDefaults?: boolean;
}

/** `auto` detects the era (discover first, then initialize); the others force one. */
export type EraPreference = 'auto' | Era;

/** Options of {@link McpClient}. */
export interface ClientOptions {
  /**
   * Capabilities to declare. By default they are derived from `handlers` (sampling → `sampling`, elicitation →
   * `elicitation` with form mode where the revision has modes, and URL mode when `elicitation.url` opts in, roots →
   * `roots`); keys given here replace the derived ones.
   */
  capabilities?: ClientCapabilities;
  /** Handlers of the server's input requests (legacy requests and modern input-required rounds). */
  handlers?: InputHandlers;
  /** Elicitation modes and defaults (form mode only, defaults applied, unless said otherwise). */
  elicitation?: ElicitationOptions;
  /** Era to speak (default `auto`). */
  era?: EraPreference;
  /**
   * The revision to ask for: in `initialize` for the legacy era (default 2025-11-25), in `_meta` for the modern
   * era (default 2026-07-28). A legacy version given here also pins the legacy side of `auto` detection.
   */
  protocolVersion?: ProtocolVersion;
  /** Revisions this client accepts from the server (default: every revision wiremcp speaks). */
  supportedVersions?: readonly ProtocolVersion[];
  /** Default timeout of requests in ms (default 60 000; `0` disables). */
  requestTimeoutMs?: number;
  /** How long `auto` detection waits for the `server/discover` answer before assuming legacy (default 3 000). */
  probeTimeoutMs?: number;
  /** Where detected eras are remembered (default: a process-wide in-memory cache). Used with `serverKey`. */
  eraCache?: EraCache;
  /** Identifies the server in `eraCache` (a command line, a URL). Without it the era is not cached. */
  serverKey?: string;
  /** Validate `structuredContent` against the tool's `outputSchema` (default true). */
  validateToolOutput?: boolean;
  /** The JSON Schema compiler used for output validation (default: a lazily loaded ajv). */
  schemaCompiler?: SchemaCompiler;
  /** Check the server's capabilities before sending a gated request (default true). */
  enforceCapabilities?: boolean;
  /** Reuse 2026-07-28 list and read results while their `ttlMs` says they are fresh (default true). */
  cacheResults?: boolean;
  /** Most pages a `listAll*` helper fetches before failing, against servers that loop cursors (default 1 000). */
  maxPages?: number;
  /** Most input-required rounds of one call before it fails (default 16). */
  maxInputRounds?: number;
  /** Receives errors that are not tied to a call (handler failures, unexpected messages). Default: ignore. */
  onError?: (error: unknown) => void;
  /**
   * Observes every request the client sends once connected (tracing, metrics; see `@wiremcp/otel`); its `_meta`
   * keys (trace context) are added to each request. Its failures go to `onError` and never fail a call.
   */
  instrumentation?: Instrumentation;
}

/** Options of one request. */
export interface CallOptions {
  /** Aborting cancels the request (`notifications/cancelled` is sent) and rejects with `REQUEST_CANCELLED`. */
  signal?: AbortSignal;
  /** Timeout of this request in ms (per round trip; input handlers' own time is not counted). `0` disables. */
  timeoutMs?: number;
  /** Receives `notifications/progress` for the request (a progress token is added to `_meta`). */
  onprogress?: (progress: Progress) => void;
  /** Restart the timeout whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the hard limit from the start of each round trip. */
  maxTotalTimeoutMs?: number;
  /** Extra `_meta` keys for the request (e.g. `traceparent`). The reserved 2026 keys are always the client's. */
  meta?: Meta;
}

/** Options of a list request. */
export interface ListOptions extends CallOptions {
  /** Ignore a cached (still fresh) result and fetch again. */
  fresh?: boolean;
}

export type { Implementation };
