/**
 * Opens an {@link McpClient} on a target with the command line's connection options: era, revision, framing,
 * headers, environment, OAuth login, tracing.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { authorizationCodeGrant, McpOAuthProvider } from '@wiremcp/auth/client';
import { FileAuthStore, startLoopbackUserAgent, type LoopbackUserAgent } from '@wiremcp/auth/node';
import { McpClient, type EraPreference, type InputHandlers } from '@wiremcp/client';
import { UI_EXTENSION, UI_MIME_TYPE } from '@wiremcp/ext-apps';
import type { Framing } from '@wiremcp/framing';
import { isLocalError, isProtocolVersion, RpcError, type ProtocolVersion } from '@wiremcp/protocol';
import type { Instrumentation, Transport } from '@wiremcp/jsonrpc';
import { httpTransportFactory, type FetchLike } from '@wiremcp/transport-http';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import { trackServer } from './server-guard.js';
import { describeTarget, type Target } from './target.js';
import { tracingFetch, TracingTransport, type TraceSink } from './trace.js';
import { VERSION } from './version.js';

/** The connection options every command takes. */
export interface ConnectionOptions {
  /** `auto` (default) detects the era; `legacy` or `modern` forces one. */
  readonly era?: EraPreference;
  /** The revision to ask for. */
  readonly protocolVersion?: string;
  /** HTTP headers, as `Name: value`. */
  readonly headers?: readonly string[];
  /**
   * Environment variables for a stdio server, as `NAME=value`, on top of the safe default set of
   * `@wiremcp/transport-stdio` (PATH, HOME, USER, locale…), or of this process's whole environment with `inheritEnv`.
   */
  readonly env?: readonly string[];
  /** The working directory of a stdio server (default: this process's). */
  readonly cwd?: string;
  /** Hands a stdio server this process's whole environment (tokens and all) instead of the safe default set. */
  readonly inheritEnv?: boolean;
  /** The stdio framing (default `ndjson`). */
  readonly framing?: Framing;
  /** Log in with OAuth (authorization code with PKCE, the browser opened on a loopback redirect). */
  readonly auth?: boolean;
  /** The loopback port of the OAuth redirect (default: any free port). */
  readonly authPort?: number;
  /** Where OAuth registrations and tokens are kept (default `~/.config/wiremcp/auth.json`). */
  readonly authStore?: string;
  /** Opens the authorization URL of an `auth` login (default: the system browser); the inspector hands it to its page. */
  readonly authOpen?: (url: URL) => void;
  /** Timeout of each request, in ms (default 60 000). */
  readonly timeoutMs?: number;
  /** Observes the client's requests (`wiremcp proxy --otel`: a span per upstream request). */
  readonly instrumentation?: Instrumentation;
  /** Shows the bytes both ways. */
  readonly trace?: TraceSink;
  /** A stdio server's stderr: kept and quoted when the server fails (`pipe`, default), passed through, or dropped. */
  readonly serverStderr?: 'pipe' | 'inherit' | 'ignore';
  /**
   * The command's own answers to the server's sampling, elicitation and roots requests (`input-answers.ts`): each
   * kind given is declared, in the shape the negotiated revision defines, URL-mode elicitation included.
   */
  readonly answers?: InputHandlers;
  /** Wraps the HTTP `fetch` (outside `trace`'s) and the stdio transport: the inspector records the wire this way. */
  readonly tap?: { readonly fetch: (inner: FetchLike) => FetchLike; readonly transport: (inner: Transport) => Transport };
}

/** An open connection; `close()` ends it (and stops a stdio server). */
export interface Connection extends AsyncDisposable {
  readonly client: McpClient;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'wiremcp-cli', version: VERSION };

/** Parses `Name: value` headers; a usage error for anything else. */
export function parseHeaders(lines: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new CliError(`--header needs 'Name: value', got ${JSON.stringify(line)}`, CLI_EXIT_CODES.usage);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function parseEnv(pairs: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError(`--env needs NAME=value, got ${JSON.stringify(pair)}`, CLI_EXIT_CODES.usage);
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return env;
}

function protocolVersionOf(text: string | undefined): ProtocolVersion | undefined {
  if (text === undefined) return undefined;
  if (!isProtocolVersion(text)) throw new CliError(`unknown protocol revision ${JSON.stringify(text)}`, CLI_EXIT_CODES.usage);
  return text;
}

/** The exit code and message of a failure to connect or of a request. */
export function cliErrorOf(error: unknown, doing: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof RpcError)
    return new CliError(`${doing}: the server answered ${error.code} ${error.message}`, CLI_EXIT_CODES.serverError, { cause: error });
  if (isLocalError(error, 'AUTHORIZATION_FAILED')) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new CliError(`${doing}: authorization failed${cause}`, CLI_EXIT_CODES.authorization, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isLocalError(error, 'HTTP_ERROR') && (error.details as { status?: unknown } | undefined)?.status === 401)
    return new CliError(`${doing}: ${message} (the server needs authorization: try --auth)`, CLI_EXIT_CODES.authorization, {
      cause: error,
    });
  return new CliError(`${doing}: ${message}`, CLI_EXIT_CODES.connection, { cause: error });
}

async function oauthProvider(url: URL, options: ConnectionOptions): Promise<{ provider: McpOAuthProvider; browser: LoopbackUserAgent }> {
  const browser = await startLoopbackUserAgent({
    ...(options.authPort === undefined ? {} : { port: options.authPort }),
    ...(options.authOpen === undefined ? {} : { openBrowser: options.authOpen }),
  });
  const provider = new McpOAuthProvider({
    serverUrl: url,
    grant: authorizationCodeGrant({ redirectUri: browser.redirectUri, userAgent: browser, clientName: 'wiremcp' }),
    store: new FileAuthStore(options.authStore ?? join(homedir(), '.config', 'wiremcp', 'auth.json')),
    // Without this line a failed refresh shows only as the browser opening again.
    onRefreshError: (error) =>
      void process.stderr.write(
        `wiremcp: the saved OAuth login could not be refreshed (${error instanceof Error ? error.message : String(error)}); logging in again\n`,
      ),
  });
  return { provider, browser };
}

/** The `fetch` of an HTTP target: traced and tapped when asked, else the transport's default. */
function fetchOption(options: ConnectionOptions): { fetch?: FetchLike } {
  const traced = options.trace ? tracingFetch(options.trace) : undefined;
  if (options.tap) return { fetch: options.tap.fetch(traced ?? ((input, init) => globalThis.fetch(input, init))) };
  return traced ? { fetch: traced } : {};
}

/**
 * Connects to `target`; a {@link CliError} with the right exit code when it cannot. With `handlers` the client
 * answers the server's sampling, elicitation (form and URL mode) and roots requests, and declares them.
 */
export async function connectTarget(target: Target, options: ConnectionOptions = {}, handlers?: InputHandlers): Promise<Connection> {
  const protocolVersion = protocolVersionOf(options.protocolVersion);
  const client = new McpClient(CLIENT_INFO, {
    ...(handlers !== undefined
      ? {
          handlers,
          // The inspector renders MCP Apps views (from their own origin, sandboxed): it says so, as a host does.
          capabilities: { sampling: { tools: {} }, extensions: { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } } },
          elicitation: { url: true, applyDefaults: false },
        }
      : options.answers !== undefined
        ? { handlers: options.answers, elicitation: { url: true } }
        : {}),
    era: options.era ?? 'auto',
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(options.timeoutMs === undefined ? {} : { requestTimeoutMs: options.timeoutMs }),
    ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
    // The command shows what the server sent; a result that fails its own outputSchema is still shown.
    validateToolOutput: false,
    onError: () => {},
  });
  let browser: LoopbackUserAgent | undefined;
  let untrack: (() => void) | undefined;
  try {
    if (target.kind === 'http') {
      const headers = parseHeaders(options.headers);
      const auth = options.auth ? await oauthProvider(target.url, options) : undefined;
      browser = auth?.browser;
      const factory = httpTransportFactory(target.url, {
        headers,
        ...(auth ? { auth: auth.provider } : {}),
        ...fetchOption(options),
      });
      await client.connect(factory, { serverKey: factory.serverKey });
    } else {
      if (options.headers?.length) throw new CliError('--header applies to URL targets only', CLI_EXIT_CODES.usage);
      if (options.auth) throw new CliError('--auth applies to URL targets only', CLI_EXIT_CODES.usage);
      const framing = options.framing ?? 'ndjson';
      const stdio = new StdioClientTransport({
        command: target.command,
        args: target.args,
        // The safe default set unless asked: a server need not see the tokens and keys of the shell that started it.
        env: options.inheritEnv ? { ...process.env, ...parseEnv(options.env) } : parseEnv(options.env),
        framing,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        stderr: options.serverStderr ?? 'pipe',
      });
      untrack = trackServer(stdio);
      const traced = options.trace ? new TracingTransport(stdio, options.trace, framing) : stdio;
      await client.connect(options.tap ? options.tap.transport(traced) : traced);
    }
  } catch (error) {
    await browser?.close();
    await client.close().catch(() => {});
    untrack?.();
    throw cliErrorOf(error, `cannot connect to ${describeTarget(target)}`);
  }
  const close = async (): Promise<void> => {
    await client.close().catch(() => {});
    untrack?.();
    await browser?.close();
  };
  return { client, close, [Symbol.asyncDispose]: close };
}
