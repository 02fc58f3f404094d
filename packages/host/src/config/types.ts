/**
 * The host's view of a server configuration, whatever file it came from: the formats are read into one shape
 * (`ServerConfig`), with every `${…}` reference already resolved.
 */

/**
 * The configuration formats read:
 * - `claude-desktop`: `claude_desktop_config.json`, top-level `mcpServers`;
 * - `vscode`: `.vscode/mcp.json` or the user profile's `mcp.json`, top-level `servers` and `inputs` (JSON with comments);
 * - `cursor`: `.cursor/mcp.json` or `~/.cursor/mcp.json`, top-level `mcpServers`;
 * - `mcp-json`: the proposed common `mcp.json` (SEP-2633), top-level `mcpServers` with an explicit `type`
 *   (also read: Claude Code's `.mcp.json`, which has the same shape with `${VAR}` references).
 */
export type ConfigFormat = 'claude-desktop' | 'vscode' | 'cursor' | 'mcp-json';

/** Every format, in the order detection prefers them. */
export const CONFIG_FORMATS: readonly ConfigFormat[] = ['vscode', 'cursor', 'claude-desktop', 'mcp-json'];

/**
 * How a server is reached:
 * - `stdio`: a local process;
 * - `http`: an HTTP endpoint whose transport is detected (a 2026-07-28 POST, then a Streamable HTTP session, then the
 *   2024-11-05 HTTP+SSE transport);
 * - `streamable-http`: Streamable HTTP only (either era, no HTTP+SSE fallback);
 * - `sse`: the 2024-11-05 HTTP+SSE transport only.
 */
export type TransportKind = 'stdio' | 'http' | 'streamable-http' | 'sse';

/** OAuth settings of a remote server (SEP-2633 `oauth`, plus a confidential client's secret and grant). */
export interface OAuthSettings {
  /** A pre-registered client id (without one: Client ID Metadata Document or dynamic registration). */
  readonly clientId?: string;
  /** The pre-registered client's secret (a confidential client). */
  readonly clientSecret?: string;
  /** Scopes to request instead of the automatic selection. */
  readonly scopes?: readonly string[];
  /** The redirect URI of the interactive login (a loopback URL; its port is then fixed). */
  readonly redirectUri?: string;
  /** `authorization_code` (a user logs in; the default) or `client_credentials` (needs `clientId` and `clientSecret`). */
  readonly grant?: 'authorization_code' | 'client_credentials';
}

/** Names of tools, prompts or resources to keep (`allow`) or drop (`deny`); `*` matches any run of characters. */
export interface NameFilter {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** Where a server's configuration came from. */
export interface ConfigSource {
  /** The file (absolute path), or a label such as `<inline>`. */
  readonly file: string;
  readonly format: ConfigFormat;
}

/** One server, resolved: ready to connect. */
export interface ServerConfig {
  /** The server's name: its key in the file; the namespace of its tools and prompts. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly transport: TransportKind;
  /** stdio: the program (run without a shell) and its arguments. */
  readonly command?: string;
  readonly args?: readonly string[];
  /** stdio: variables set on top of the safe inherited set (PATH, HOME, locale…; see `@wiremcp/transport-stdio`). */
  readonly env?: Readonly<Record<string, string>>;
  /** stdio: the working directory. */
  readonly cwd?: string;
  /** Remote: the MCP endpoint. */
  readonly url?: string;
  /** Remote: headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Remote: log in with OAuth (present, even empty, means the server is expected to need it). */
  readonly oauth?: OAuthSettings;
  /** Not connected (`disabled: true`, or `enabled: false`). */
  readonly disabled: boolean;
  /** How long connecting (start, handshake, first listing) may take, in ms. */
  readonly connectTimeoutMs?: number;
  /** The default timeout of each request, in ms. */
  readonly requestTimeoutMs?: number;
  /** Which tools, prompts and resources of this server the host offers. */
  readonly tools?: NameFilter;
  readonly prompts?: NameFilter;
  readonly resources?: NameFilter;
  readonly source: ConfigSource;
  /**
   * Every value that came from a `${…}` reference, and every env and header value: what is never printed. Messages and
   * status the host shows have these replaced by `[redacted]`.
   */
  readonly secrets: readonly string[];
}

/** A configuration: the servers of one or more files. */
export interface HostConfig {
  readonly servers: readonly ServerConfig[];
  /** The files read, in order. */
  readonly files: readonly string[];
  /** What was accepted but is worth saying (unknown keys, a server defined twice…). */
  readonly warnings: readonly string[];
}

/** An input a configuration asks for (`${input:id}`; VS Code's `inputs`). */
export interface InputDefinition {
  readonly id: string;
  /** `promptString` (default) or `pickString`. */
  readonly type: 'promptString' | 'pickString';
  readonly description?: string;
  /** A secret: never echoed. */
  readonly password?: boolean;
  readonly default?: string;
  /** `pickString`: the choices. */
  readonly options?: readonly string[];
  /** The file that defines (or uses) it. */
  readonly file: string;
}

/** Supplies `${input:id}` values: a map of values, or a function asked once per id (e.g. a prompt to the user). */
export type InputResolver =
  Readonly<Record<string, string>> | ((input: InputDefinition) => string | undefined | Promise<string | undefined>);
