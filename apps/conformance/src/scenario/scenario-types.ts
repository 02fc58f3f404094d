/**
 * The shape of a scenario file once loaded and validated (`schemas/scenario.schema.json` is the normative
 * description; these types mirror it). Patterns and messages stay `unknown`: they are templates resolved per
 * cell.
 */

/** A transport of the matrix. */
export type TransportId =
  'stdio-ndjson' | 'stdio-content-length' | 'streamable-http' | 'streamable-http-stateless' | 'http-sse' | 'websocket';

/** Every transport, in matrix order. */
export const TRANSPORTS: readonly TransportId[] = [
  'stdio-ndjson',
  'stdio-content-length',
  'streamable-http',
  'streamable-http-stateless',
  'http-sse',
  'websocket',
];

/** Transport families a scenario may name instead of single transports. */
export const TRANSPORT_FAMILIES: Readonly<Record<string, readonly TransportId[]>> = {
  all: TRANSPORTS,
  stdio: ['stdio-ndjson', 'stdio-content-length'],
  http: ['streamable-http', 'streamable-http-stateless', 'http-sse'],
  'streamable-http-any': ['streamable-http', 'streamable-http-stateless'],
  websocket: ['websocket'],
};

/** True for the stdio transports (a child process, bytes on stdin/stdout). */
export function isStdioTransport(transport: TransportId): boolean {
  return transport === 'stdio-ndjson' || transport === 'stdio-content-length';
}

/** True for the HTTP transports (requests and responses with status codes and headers). */
export function isHttpTransport(transport: TransportId): boolean {
  return transport === 'streamable-http' || transport === 'streamable-http-stateless' || transport === 'http-sse';
}

/** The family of a transport, as step conditions name it: `stdio`, `http` or `websocket`. */
export function transportFamily(transport: TransportId): 'stdio' | 'http' | 'websocket' {
  return isStdioTransport(transport) ? 'stdio' : isHttpTransport(transport) ? 'http' : 'websocket';
}

/** Which servers a scenario applies to. */
export type ServerSelector =
  | { readonly kind: 'any' }
  | { readonly kind: 'ids'; readonly ids: readonly string[] }
  | { readonly kind: 'requires'; readonly capabilities: readonly string[]; readonly features: readonly string[] };

/** Conditions under which a step runs (all given ones must hold). */
export interface StepCondition {
  readonly era?: 'legacy' | 'modern';
  readonly revisions?: readonly string[];
  readonly transports?: readonly string[];
  readonly features?: readonly string[];
  /** The step runs only when the server has none of these features. */
  readonly withoutFeatures?: readonly string[];
}

/** Fields every step may carry. */
export interface StepCommon {
  /** What the step does, for reports (defaults to a description derived from the step). */
  readonly name?: string;
  readonly when?: StepCondition;
}

/** One step of a scenario: exactly one action key plus its modifiers. */
export type Step = StepCommon &
  (
    | { readonly handshake: HandshakeOptions }
    | {
        readonly send: unknown;
        readonly meta?: 'auto' | 'none';
        readonly headers?: Record<string, string | null>;
        readonly status?: unknown;
      }
    | { readonly sendPayload: PayloadSpec; readonly headers?: Record<string, string | null>; readonly status?: unknown }
    | { readonly sendRaw: string | readonly RawChunk[] }
    | { readonly expect: unknown; readonly timeoutMs?: number; readonly consume?: boolean; readonly status?: unknown }
    | { readonly expectNone: number | { readonly ms: number; readonly match?: unknown } }
    | { readonly closeStdin: true }
    | { readonly expectExit: { readonly withinMs?: number; readonly code?: unknown } }
    | { readonly reply: { readonly to: unknown; readonly result?: unknown; readonly error?: unknown } }
    | { readonly cancel: { readonly id: unknown; readonly reason?: string } }
    | { readonly paginate: PaginateSpec }
    | { readonly assert: AssertSpec }
    | { readonly sleep: number }
    | { readonly http: HttpStepSpec }
  );

/** The `http` step (HTTP transports only): one raw request and a pattern for its response. */
export interface HttpStepSpec {
  /** Default POST. On HTTP+SSE, GET goes to the SSE endpoint and anything else to the announced message endpoint. */
  readonly method?: string;
  /** Over the session's own headers (POST: content type, accept; the session id and version); `null` removes one. */
  readonly headers?: Record<string, string | null>;
  /** The body as text (may be anything), or a message serialised as written (no `_meta` added). */
  readonly body?: string;
  readonly json?: unknown;
  /** With `json`: pad the message's params (`_pad`) so that the body is exactly this many bytes (a template allowed). */
  readonly padToBytes?: number | string;
  /** Send the body with chunked transfer encoding instead of a Content-Length. */
  readonly chunked?: boolean;
  /** An SSE answer: read this many events (the response's `events`; 0: none) instead of stopping at the first message. */
  readonly sseEvents?: number;
  /** Over the query parameters of the request URL; `null` removes one. */
  readonly query?: Record<string, string | null>;
  /** Matched against `{status, headers, body}` (header names lower-case; a JSON or SSE body parsed). */
  readonly response?: unknown;
}

/** The `handshake` macro: legacy `initialize` + `notifications/initialized`; modern: optionally `server/discover`. */
export interface HandshakeOptions {
  /** Client capabilities (legacy: in `initialize`; modern: in every request's `_meta` from now on). */
  readonly capabilities?: Record<string, unknown>;
  /** The id of the `initialize` (or `server/discover`) request. Default 1. */
  readonly id?: number | string;
  /** Modern cells: also send `server/discover` and check it. Default false. */
  readonly discover?: boolean;
  /** Legacy cells: send `notifications/initialized`. Default true. */
  readonly initialized?: boolean;
}

/** A JSON-RPC payload framed with the cell's framing (stdio) or POSTed as the body (HTTP). */
export interface PayloadSpec {
  /** The payload text; may be invalid JSON on purpose. */
  readonly text?: string;
  /** The payload bytes, base64 (for invalid UTF-8). */
  readonly base64?: string;
  /** A message to serialise, padded with a `params._pad` string so the payload is exactly this many bytes. */
  readonly json?: unknown;
  readonly padToBytes?: number | string;
}

/** A chunk of raw bytes, optionally followed by a pause (to split a frame across reads). */
export interface RawChunk {
  readonly text?: string;
  readonly base64?: string;
  readonly pauseMs?: number;
}

/** The `paginate` macro: follows `nextCursor` until it is absent. */
export interface PaginateSpec {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  /** The result key holding the items (`tools`, `resources`, `resourceTemplates`, `prompts`). */
  readonly items: string;
  /** Capture name for the concatenated items. */
  readonly capture: string;
  /** First request id; later pages use the following integers. Default 100. */
  readonly firstId?: number;
  readonly maxPages?: number;
}

/** The `assert` step: matches a templated value (usually a capture) against a pattern. */
export interface AssertSpec {
  readonly value: unknown;
  readonly match: unknown;
  /** What a mismatch means: a failure (default) or a skip of the rest of the cell (`reason` says why). */
  readonly otherwise?: 'fail' | 'skip';
  readonly reason?: string;
}

/**
 * The strength of the spec's wording a scenario checks: a failing `must` cell is a failure, a failing `should`
 * or `may` cell a warning.
 */
export type ScenarioLevel = 'must' | 'should' | 'may';

/** A loaded, validated scenario. */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly area: string;
  readonly spec: readonly string[];
  readonly level: ScenarioLevel;
  /**
   * What the scenario needs of its stdio server process (README "Server processes"): `first` — to be the first
   * cell on it, its ids on the wire as written; `last` — that nothing runs after it (it changes what the server
   * holds); `fresh` — a process of its own. Absent: it may share one.
   */
  readonly process?: 'fresh' | 'first' | 'last';
  readonly description?: string;
  /** The revisions the scenario applies to, resolved to concrete revision strings. */
  readonly revisions: readonly string[];
  readonly servers: ServerSelector;
  readonly transports: readonly TransportId[];
  /** Default client capabilities of the cell (overridden by a handshake step's own). */
  readonly clientCapabilities: Record<string, unknown>;
  /** Default timeout of `expect` steps, in ms. */
  readonly timeoutMs: number;
  readonly steps: readonly Step[];
  /** The file it came from, relative to the scenarios directory. */
  readonly file: string;
}

/** A scenario file that could not be loaded, with every problem found. */
export interface ScenarioLoadError {
  readonly file: string;
  readonly problems: readonly { readonly path: string; readonly message: string; readonly line?: number; readonly column?: number }[];
}
