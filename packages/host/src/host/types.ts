/**
 * The public types of {@link McpHost}: its options, the state of each server, the events it emits, the consent hook and
 * the input handlers.
 */
import type { AuthStore } from '@wiremcp/auth/client';
import type { LoopbackUserAgentOptions } from '@wiremcp/auth/node';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  InputContext,
  ListRootsResult,
  LoggingMessageParams,
  ToolAnnotations,
} from '@wiremcp/client';
import type { Transport } from '@wiremcp/jsonrpc';
import type { FetchLike } from '@wiremcp/transport-http';
import type { ServerFilters, CatalogueKind } from '../catalogue/catalogue.js';
import type { ServerConfig, TransportKind } from '../config/types.js';
import type { RestartPolicy } from './backoff.js';

/**
 * Where a server is in its life:
 * - `disabled`: the configuration turns it off; never connected;
 * - `connecting`: starting the process or opening the connection, negotiating, listing;
 * - `ready`: connected; its tools, prompts and resources are in the catalogue;
 * - `retrying`: it failed to start or went away; another attempt is scheduled (`retryAt`);
 * - `failed`: the host gave up (too many failures in a row, or a failure retrying cannot fix); `restart()` tries again;
 * - `closed`: the host is closed.
 */
export type ServerState = 'disabled' | 'connecting' | 'ready' | 'retrying' | 'failed' | 'closed';

/** One row of {@link McpHost.status}: what is known about a server now. Nothing secret is in it. */
export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  /** The configured transport. */
  readonly transport: TransportKind;
  /** What was actually reached: `stdio`, or over HTTP `modern` (2026-07-28 POSTs), `streamable` (a session) or `sse`. */
  readonly connectedOver?: 'stdio' | 'modern' | 'streamable' | 'sse';
  readonly era?: 'legacy' | 'modern';
  readonly protocolVersion?: string;
  readonly serverInfo?: Implementation;
  /** How many tools, prompts, resources and templates it offers (after its filters). */
  readonly counts: Readonly<Record<CatalogueKind, number>>;
  /** Failed attempts in a row (reset when it becomes ready). */
  readonly failures: number;
  /** How many times it was started again after being ready (died, lost its connection, `restart()`). */
  readonly restarts: number;
  /** The stdio process id while running. */
  readonly pid?: number;
  /** The last failure, redacted (no configured secret appears in it). */
  readonly lastError?: string;
  /** When the state last changed (ms since the epoch). */
  readonly since: number;
  /** `retrying`: when the next attempt starts (ms since the epoch). */
  readonly retryAt?: number;
  /** The configuration file it came from. */
  readonly source: string;
}

/** What an input handler of the host gets: the client's context, and which server asked. */
export interface HostInputContext extends InputContext {
  readonly server: string;
}

/** One handler each for what servers ask of the host; every server's requests reach them, tagged with the server. */
export interface HostHandlers {
  sampling?(params: CreateMessageParams, context: HostInputContext): CreateMessageResult | Promise<CreateMessageResult>;
  /** Form and URL mode (URL mode reaches it only with the host's `elicitation: { url: true }`). */
  elicitation?(params: ElicitParams, context: HostInputContext): ElicitResult | Promise<ElicitResult>;
  /** Without it, servers get the host's `roots` (see {@link McpHost.setRoots}). */
  roots?(context: HostInputContext): ListRootsResult | Promise<ListRootsResult>;
}

/** A root the host exposes to servers. */
export interface HostRoot {
  readonly uri: string;
  readonly name?: string;
}

/** What the consent hook is asked before a tool call. */
export interface ToolCallRequest {
  /** The server and the tool's own name there. */
  readonly server: string;
  readonly tool: string;
  /** The namespaced name. */
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly title?: string;
  readonly description?: string;
  /** The tool's annotations as listed (hints from the server: untrusted unless the server is). */
  readonly annotations?: ToolAnnotations;
  /** The annotations with the spec's defaults applied (`destructive` and `openWorld` default to true). */
  readonly hints: { readonly readOnly: boolean; readonly destructive: boolean; readonly idempotent: boolean; readonly openWorld: boolean };
  /** Aborts when the caller gives up on the call. */
  readonly signal?: AbortSignal;
}

/** The consent hook's answer: allow or refuse (with a reason shown to the caller), possibly with edited arguments. */
export type ConsentDecision =
  boolean | { readonly allow: true; readonly arguments?: Record<string, unknown> } | { readonly allow: false; readonly reason?: string };

/** Asked before every tool call the host routes. */
export type ConsentHook = (request: ToolCallRequest) => ConsentDecision | Promise<ConsentDecision>;

/** OAuth for remote servers. */
export interface HostOAuthOptions {
  /** Where registrations and tokens are kept (default: in memory, for this host). */
  readonly store?: AuthStore;
  /**
   * Interactive login: a loopback redirect listener per server that uses OAuth, and the browser opened at the
   * authorization URL (`true`, or the listener's options). Default off: a server that needs a user to log in fails
   * with `AUTHORIZATION_FAILED`.
   */
  readonly login?: boolean | LoopbackUserAgentOptions;
  /** Use OAuth for every remote server, not only those whose configuration has `oauth` (default false). */
  readonly allServers?: boolean;
  /** The client name registered with authorization servers (default `wiremcp host`). */
  readonly clientName?: string;
}

/** Options of {@link McpHost}. */
export interface McpHostOptions {
  /** The `clientInfo` every connection declares (default `{ name: 'wiremcp-host', version }`). */
  readonly clientInfo?: Implementation;
  /** Between a server's name and a tool's or prompt's name (default `.`). */
  readonly separator?: string;
  /** How long connecting a server may take: start, handshake, first listing (default 30 000 ms; per server: `connectTimeoutMs`). */
  readonly connectTimeoutMs?: number;
  /** Default timeout of each request (default 60 000 ms; per server: `requestTimeoutMs`). */
  readonly requestTimeoutMs?: number;
  /** Retries of servers that fail or go away. */
  readonly restart?: Partial<RestartPolicy>;
  /** Asked before every tool call (default: every call is allowed). */
  readonly consent?: ConsentHook;
  /** Sampling, elicitation and roots, for every server. */
  readonly handlers?: HostHandlers;
  /** The roots servers see (when `handlers.roots` is not given); change them with {@link McpHost.setRoots}. */
  readonly roots?: readonly HostRoot[];
  /** Accept URL-mode elicitation (default false; see `@wiremcp/client`). */
  readonly elicitation?: { readonly url?: boolean };
  /** Allow/deny lists per server name, replacing the configuration's for the kinds given. */
  readonly filters?: Readonly<Record<string, ServerFilters>>;
  /** OAuth for remote servers. */
  readonly oauth?: HostOAuthOptions;
  /** A stdio server's stderr: `pipe` (default; each chunk is a `stderr` event, the end quoted in failures), `inherit`, `ignore`. */
  readonly serverStderr?: 'pipe' | 'inherit' | 'ignore';
  /** Validate `structuredContent` against each tool's `outputSchema` (default true). */
  readonly validateToolOutput?: boolean;
  /** How long each stage of stopping a stdio server waits (default 2 000 ms). */
  readonly shutdownTimeoutMs?: number;
  /** Wraps each stdio transport (e.g. to trace its bytes). */
  readonly wrapTransport?: (server: ServerConfig, transport: Transport) => Transport;
  /** The `fetch` of a remote server's transport (e.g. to trace it); default the global fetch. */
  readonly fetch?: (server: ServerConfig) => FetchLike | undefined;
  /** Randomness of the retry jitter (default `Math.random`). */
  readonly random?: () => number;
}

/** The events of {@link McpHost.on}. */
export interface HostEvents {
  /** A server changed state. */
  state: { readonly server: string; readonly state: ServerState; readonly previous: ServerState; readonly error?: string };
  /** The catalogue changed: a server's lists were (re)loaded or cleared. */
  catalogue: { readonly server: string; readonly kinds: readonly CatalogueKind[] };
  /** A chunk of a stdio server's stderr (with `serverStderr: 'pipe'`). */
  stderr: { readonly server: string; readonly text: string };
  /** A log message a server sent (`notifications/message`). */
  log: { readonly server: string } & LoggingMessageParams;
  /** Every notification a server sent. */
  notification: { readonly server: string; readonly method: string; readonly params?: unknown };
  /** A failure that belongs to no call (a list refresh that failed, a listener that threw). */
  error: { readonly server?: string; readonly error: unknown };
}
