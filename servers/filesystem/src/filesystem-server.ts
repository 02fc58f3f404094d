/**
 * The filesystem MCP server: the operator's directories pinned, the sandbox, the tools (read, list, search always;
 * write unless read-only; delete with allowDelete), files as resources with subscriptions. `serve(transport)`
 * connects one transport (stdio now; any `Transport`); the server's subscription hooks keep the watchers in line
 * with what its clients subscribe to.
 */
import {
  McpServer,
  type ConnectOptions,
  type DispatchExchange,
  type ServerConnection,
  type ServerOptions,
  type ToolDefinition,
} from '@wiremcp/server';
import type { RpcResponse } from '@wiremcp/protocol';
import type { Transport } from '@wiremcp/jsonrpc';
import { packageVersion } from '@wiremcp/process';
import type { FilesystemConfig } from './config.js';
import { registerFileResources } from './resources/file-resources.js';
import { subscriptionHooks } from './resources/subscriptions.js';
import { WatchHub } from './resources/watch-hub.js';
import { DenyList } from './sandbox/deny-list.js';
import { HAS_NOFOLLOW } from './sandbox/dir-handle.js';
import { pinRoots, unpinRoots, type PinnedRoots } from './sandbox/pinned-roots.js';
import { RootsTracker } from './sandbox/roots-tracker.js';
import { Sandbox } from './sandbox/sandbox.js';
import { registerDeleteTools } from './tools/delete-tools.js';
import { registerListTools } from './tools/list-tools.js';
import { registerReadTools } from './tools/read-tools.js';
import { registerSearchTools } from './tools/search-tools.js';
import type { ToolServices } from './tools/tool-runtime.js';
import { registerWriteTools } from './tools/write-tools.js';

/** What `runServerMain` and the HTTP handler serve: the McpServer's own surface, closing the watchers and pins too. */
export interface FilesystemServable {
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerConnection>;
  dispatch(message: unknown, exchange: DispatchExchange): Promise<RpcResponse | undefined>;
  tool(name: string): ToolDefinition | undefined;
  close(): Promise<void>;
}

/** Who the server is. */
export const FILESYSTEM_SERVER_INFO = {
  name: 'wiremcp-filesystem',
  title: 'wiremcp filesystem server',
  version: packageVersion(import.meta.url, '@wiremcp/server-filesystem'),
} as const;

/** The server cannot start (no usable directory, unsupported platform). */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** A running filesystem server. */
export interface FilesystemServer {
  readonly server: McpServer;
  readonly sandbox: Sandbox;
  readonly pinned: PinnedRoots;
  readonly config: FilesystemConfig;
  /** Directories watched for subscriptions right now. */
  readonly watchers: () => number;
  /** Serves one transport. */
  serve(transport: Transport): Promise<ServerConnection>;
  /**
   * The server as a transport host serves it (`connect` for connections and HTTP sessions, `dispatch` for
   * 2026-07-28 HTTP requests, `tool`, `close`); subscriptions reach the watchers through the server's hooks.
   */
  readonly servable: FilesystemServable;
  /** Closes every connection, watcher and pinned directory. */
  close(): Promise<void>;
}

/** Options of {@link createFilesystemServer}. */
export interface FilesystemServerOptions {
  /** Lines for the operator (stderr in the bin). */
  log?: (line: string) => void;
  /** Unexpected errors (never sent to clients). */
  onInternalError?: (error: unknown) => void;
  /** Observes every request and session (metrics, tracing): the `McpServer` option. */
  instrumentation?: ServerOptions['instrumentation'];
}

const INSTRUCTIONS =
  'Access to files in the allowed directories (list_allowed_directories). Paths are absolute, or relative to the first allowed ' +
  'directory. Reads and listings are capped: a cut result says so and how to continue (offset, startLine, or a narrower path). ' +
  'search_files matches names; search_file_contents searches inside files.';

/** Pins the directories and builds the server. Throws StartupError when no directory is usable. */
export async function createFilesystemServer(config: FilesystemConfig, options: FilesystemServerOptions = {}): Promise<FilesystemServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const onInternal =
    options.onInternalError ??
    ((error: unknown) => log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  if (!HAS_NOFOLLOW || process.platform === 'win32')
    throw new StartupError('this server needs O_NOFOLLOW and O_DIRECTORY (Linux, macOS, BSD)');
  if (config.directories.length === 0) throw new StartupError('give at least one directory');
  const pinned = await pinRoots(config.directories);
  for (const line of pinned.skipped) log(`skipping ${line}`);
  if (pinned.roots.length === 0) throw new StartupError('none of the directories can be used');
  if (pinned.anchoring !== 'proc-fd') {
    log(
      'warning: /proc/self/fd is not available; paths are checked before and after each open, which narrows but does not close swap races',
    );
  }
  const sandbox = new Sandbox(pinned, new DenyList(config.deny), { allowHardLinks: config.allowHardLinks });
  const roots = new RootsTracker(pinned.roots, config.roots, config.rootsTimeoutMs, config.rootsFallback, log);
  // The hub needs the server (it announces changes through it), the server the hub (its hooks feed it).
  let hub: WatchHub | undefined;
  const server = new McpServer(FILESYSTEM_SERVER_INFO, {
    instructions: INSTRUCTIONS,
    capabilities: { resources: { subscribe: true } },
    onInternalError: onInternal,
    ...(options.instrumentation ? { instrumentation: options.instrumentation } : {}),
    ...subscriptionHooks({ sandbox, roots }, () => hub!),
  });
  server.onrootslistchanged = (connection) => roots.invalidate(connection.session);
  const services: ToolServices = { sandbox, roots, config, limits: config.limits };
  registerReadTools(server, services, onInternal);
  registerListTools(server, services, onInternal);
  registerSearchTools(server, services, onInternal);
  if (!config.readOnly) registerWriteTools(server, services, onInternal);
  if (!config.readOnly && config.allowDelete) registerDeleteTools(server, services, onInternal);
  registerFileResources(server, services);
  const watches = new WatchHub(sandbox, roots.operator, server, config.maxWatchers, config.watchDebounceMs, log);
  hub = watches;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await server.close();
      watches.close();
      await unpinRoots(pinned);
    })());
  return {
    server,
    sandbox,
    pinned,
    config,
    watchers: () => watches.watchers,
    serve: (transport) => server.connect(transport),
    servable: {
      connect: (transport, options) => server.connect(transport, options),
      dispatch: (message, exchange) => server.dispatch(message, exchange),
      tool: (name) => server.tool(name),
      close,
    },
    close,
  };
}
