/**
 * How one attempt reaches one server: a stdio process (with the safe inherited environment of
 * `@wiremcp/transport-stdio` plus the configured `env`, in the configured `cwd`), or an HTTP endpoint (transport
 * detected, or pinned to Streamable HTTP or to HTTP+SSE) with its headers and, when asked for, OAuth.
 */
import { AuthError } from '@wiremcp/auth';
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  McpOAuthProvider,
  MemoryAuthStore,
  type AuthorizationUserAgent,
  type AuthStore,
} from '@wiremcp/auth/client';
import { startLoopbackUserAgent, type LoopbackUserAgent, type LoopbackUserAgentOptions } from '@wiremcp/auth/node';
import type { McpClient } from '@wiremcp/client';
import type { Transport } from '@wiremcp/jsonrpc';
import { httpTransportFactory, SseClientTransport, type HttpAuthHook } from '@wiremcp/transport-http';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import type { ServerConfig } from '../config/types.js';
import type { McpHostOptions, ServerStatus } from './types.js';

/** One attempt's way to a server. */
export interface ServerLink {
  /** Connects `client` over this link. */
  connect(client: McpClient): Promise<void>;
  /** What was reached, once connected. */
  readonly connectedOver: ServerStatus['connectedOver'];
  /** The stdio process id, while it runs. */
  readonly pid: number | undefined;
  /** Releases what the link holds besides the client's transport (the OAuth redirect listener). */
  close(): Promise<void>;
}

/** What links need from the host: its options, and where stderr chunks go. */
export interface LinkContext {
  readonly options: McpHostOptions;
  readonly authStore: AuthStore;
  readonly onStderr: (text: string) => void;
}

/** Creates the auth store of a host: the configured one, or one in memory. */
export function hostAuthStore(options: McpHostOptions): AuthStore {
  return options.oauth?.store ?? new MemoryAuthStore();
}

function stdioLink(server: ServerConfig, context: LinkContext): ServerLink {
  const stderr = context.options.serverStderr ?? 'pipe';
  const stdio = new StdioClientTransport({
    command: server.command!,
    args: server.args ?? [],
    // Overlaid on the safe default set (PATH, HOME, locale…): the host's own secrets are not handed to servers.
    ...(server.env === undefined ? {} : { env: server.env }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr,
    ...(context.options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: context.options.shutdownTimeoutMs }),
  });
  const start = stdio.start.bind(stdio);
  const onData = (chunk: Buffer): void => context.onStderr(chunk.toString('utf8'));
  // Listen from the moment the process exists, so its start-up messages are seen too.
  stdio.start = async () => {
    await start();
    stdio.stderr?.on('data', onData);
  };
  const transport: Transport = context.options.wrapTransport?.(server, stdio) ?? stdio;
  return {
    connect: (client) => client.connect(transport),
    connectedOver: 'stdio',
    get pid() {
      return stdio.exitCode === undefined ? stdio.pid : undefined;
    },
    close: async () => {
      const stream = stdio.stderr;
      if (stream === null) return;
      stream.removeListener('data', onData);
      // The transport leaves a stderr someone listens to open; now no one does.
      if (!stream.destroyed && stream.listenerCount('data') === 0) stream.destroy();
    },
  };
}

/**
 * The store as one server of the host sees it: its registrations and tokens kept apart from every other server's, even
 * for the same URL and authorization server (SEP-2633: each entry has its own OAuth session — two entries may name one
 * endpoint with different scopes, and each login has its own loopback redirect).
 */
export function scopedAuthStore(store: AuthStore, server: string): AuthStore {
  const key = (value: string): string => `${value}#wiremcp-host=${encodeURIComponent(server)}`;
  return {
    loadClient: (issuer) => store.loadClient(key(issuer)),
    saveClient: (issuer, client) => store.saveClient(key(issuer), client),
    deleteClient: (issuer) => store.deleteClient(key(issuer)),
    loadTokens: (url) => store.loadTokens(key(url)),
    saveTokens: (url, tokens) => store.saveTokens(key(url), tokens),
    deleteTokens: (url) => store.deleteTokens(key(url)),
  };
}

/** A user agent for hosts without interactive login: says how to turn it on. */
const NO_LOGIN: AuthorizationUserAgent = {
  authorize: () =>
    Promise.reject(new AuthError('authorization_failed', 'this server needs a user to log in, and interactive login is off (oauth.login)')),
};

async function oauthFor(server: ServerConfig, context: LinkContext): Promise<{ auth?: HttpAuthHook; browser?: LoopbackUserAgent }> {
  const settings = server.oauth ?? (context.options.oauth?.allServers ? {} : undefined);
  if (settings === undefined) return {};
  const store = scopedAuthStore(context.authStore, server.name);
  const common = { serverUrl: server.url!, store, ...(settings.scopes === undefined ? {} : { scopes: settings.scopes }) };
  if (settings.grant === 'client_credentials') {
    const grant = clientCredentialsGrant({ clientId: settings.clientId!, clientSecret: settings.clientSecret! });
    return { auth: new McpOAuthProvider({ ...common, grant }) };
  }
  const login = context.options.oauth?.login;
  let browser: LoopbackUserAgent | undefined;
  let redirectUri = settings.redirectUri ?? 'http://127.0.0.1/callback';
  if (login) {
    const fixed = settings.redirectUri === undefined ? undefined : new URL(settings.redirectUri);
    const base: LoopbackUserAgentOptions = login === true ? {} : login;
    browser = await startLoopbackUserAgent({
      ...base,
      ...(fixed ? { port: Number(fixed.port || 80), path: fixed.pathname } : {}),
    });
    redirectUri = browser.redirectUri;
  }
  const grant = authorizationCodeGrant({
    redirectUri,
    userAgent: browser ?? NO_LOGIN,
    clientName: context.options.oauth?.clientName ?? 'wiremcp host',
    ...(settings.clientId === undefined
      ? {}
      : {
          preRegistered: {
            clientId: settings.clientId,
            ...(settings.clientSecret === undefined ? {} : { clientSecret: settings.clientSecret }),
          },
        }),
  });
  return { auth: new McpOAuthProvider({ ...common, grant }), ...(browser ? { browser } : {}) };
}

async function httpLink(server: ServerConfig, context: LinkContext): Promise<ServerLink> {
  const { auth, browser } = await oauthFor(server, context);
  const fetch = context.options.fetch?.(server);
  const options = {
    ...(server.headers === undefined ? {} : { headers: server.headers }),
    ...(auth === undefined ? {} : { auth }),
    ...(fetch === undefined ? {} : { fetch }),
  };
  let connectedOver: ServerStatus['connectedOver'];
  const close = async (): Promise<void> => {
    await browser?.close();
  };
  if (server.transport === 'sse') {
    return {
      connect: async (client) => {
        await client.connect(new SseClientTransport(server.url!, options));
        connectedOver = 'sse';
      },
      get connectedOver() {
        return connectedOver;
      },
      pid: undefined,
      close,
    };
  }
  const factory = httpTransportFactory(server.url!, { ...options, legacySse: server.transport === 'http' });
  return {
    connect: async (client) => {
      await client.connect(factory, { serverKey: factory.serverKey });
      connectedOver = factory.kind;
    },
    get connectedOver() {
      return connectedOver ?? factory.kind;
    },
    pid: undefined,
    close,
  };
}

/** The link of one attempt. */
export function createLink(server: ServerConfig, context: LinkContext): Promise<ServerLink> {
  return server.transport === 'stdio' ? Promise.resolve(stdioLink(server, context)) : httpLink(server, context);
}
