/**
 * The proxy's server side: an `McpServer` that serves whatever an upstream `McpClient` is connected to. Each
 * request of the downstream client is re-issued upstream by the client, so the two sides negotiate their eras
 * independently — a 2026-07-28 host can reach a 2024-11-05 server and the other way round; the `McpServer`
 * and the `McpClient` translate.
 *
 * Forwarded: tools, resources (list, templates, read), prompts, completion, list-changed notifications,
 * progress and cancellation; resource subscriptions when the upstream server declares `resources.subscribe`
 * (the server's subscription hooks subscribe upstream, counted per URI across the downstream sessions and
 * listen streams this bridge serves, and `notifications/resources/updated` goes to the subscribed ones through
 * `notifyResourceUpdated`); the upstream server's own requests for sampling, elicitation and roots, answered by
 * the downstream client whose request is in flight (`downstream-inputs.ts`); and a legacy downstream client's
 * `notifications/roots/list_changed`.
 */
import type { CallOptions, McpClient } from '@wiremcp/client';
import type { Instrumentation, Progress } from '@wiremcp/jsonrpc';
import { McpServer, type HandlerContext, type SubscriptionHooks } from '@wiremcp/server';
import type { DownstreamInputs, InputSubject } from './downstream-inputs.js';
import { VERSION } from './version.js';

/** Keys the bridge's own server stamps on 2026-07-28 results; the upstream ones are dropped. */
const STAMPED = new Set(['resultType', 'ttlMs', 'cacheScope']);

function unstamped<T extends object>(result: T): T {
  return Object.fromEntries(Object.entries(result).filter(([key]) => !STAMPED.has(key))) as T;
}

function callOptions(context: HandlerContext, signal: AbortSignal): CallOptions {
  return {
    signal,
    onprogress: (progress: Progress) => void context.sendProgress(progress.progress, progress.total, progress.message).catch(() => {}),
  };
}

/**
 * The subscription hooks: one upstream subscription per URI while any downstream session or listen stream holds
 * one (a second subscriber waits for the first one's upstream subscription; the last one to go releases it).
 */
function subscriptionHooks(upstream: McpClient, held: Map<string, { count: number; ready: Promise<void> }>): SubscriptionHooks {
  return {
    onSubscribe: async (uri) => {
      let entry = held.get(uri);
      if (entry === undefined) {
        entry = { count: 0, ready: upstream.subscribeResource(uri) };
        held.set(uri, entry);
      }
      entry.count += 1;
      try {
        await entry.ready;
      } catch (error) {
        // Refused upstream: every subscriber waiting on it is refused, and the next one asks again.
        if (held.get(uri) === entry) held.delete(uri);
        throw error;
      }
    },
    onUnsubscribe: (uri) => {
      const entry = held.get(uri);
      if (entry === undefined || --entry.count > 0) return;
      held.delete(uri);
      upstream.unsubscribeResource(uri).catch(() => {});
    },
  };
}

/** The upstream subscriptions each bridge server holds, by URI (read by {@link heldSubscriptions}). */
const HELD = new WeakMap<McpServer, Map<string, { count: number; ready: Promise<void> }>>();

/**
 * The resource URIs `server` (a bridge server) holds an upstream subscription for on behalf of its downstream
 * clients: what a new upstream process must be subscribed to again (`wiremcp dev` after a restart).
 */
export function heldSubscriptions(server: McpServer): readonly string[] {
  return [...(HELD.get(server)?.keys() ?? [])];
}

/** Builds the bridge server for a connected `upstream` client whose input handlers are `inputs`'; see the module comment. */
export function createBridgeServer(upstream: McpClient, inputs: DownstreamInputs, instrumentation?: Instrumentation): McpServer {
  const capabilities = upstream.serverCapabilities ?? {};
  const info = upstream.serverInfo ?? { name: 'wiremcp-proxy', version: VERSION };
  const subscribe = capabilities.resources?.subscribe === true;
  const held = new Map<string, { count: number; ready: Promise<void> }>();
  const server = new McpServer(
    { ...info },
    {
      ...(upstream.instructions === undefined ? {} : { instructions: upstream.instructions }),
      capabilities: {
        tools: capabilities.tools !== undefined,
        resources: capabilities.resources === undefined ? false : { subscribe },
        prompts: capabilities.prompts !== undefined,
        completions: capabilities.completions !== undefined,
      },
      // Fresh from upstream on every request: the upstream server's own caching hints are not known here.
      caching: { default: { ttlMs: 0, cacheScope: 'private' } },
      ...(subscribe ? subscriptionHooks(upstream, held) : {}),
      ...(instrumentation === undefined ? {} : { instrumentation }),
    },
  );
  HELD.set(server, held);
  /** Sends a downstream request's upstream request, as one the upstream server may ask the downstream client about. */
  const forward = <T extends object>(
    context: HandlerContext,
    send: (options: CallOptions) => Promise<T>,
    subject?: InputSubject,
  ): Promise<T> => inputs.forward(context, (signal) => send(callOptions(context, signal)), subject).then(unstamped);
  const fresh = (options: CallOptions): CallOptions & { fresh: true } => ({ ...options, fresh: true });
  if (capabilities.tools) {
    server.setRequestHandler('tools/list', (params, context) => forward(context, (o) => upstream.listTools(cursorOf(params), fresh(o))));
    server.setRequestHandler('tools/call', (params, context) =>
      forward(context, (o) => upstream.callTool(params.name, params.arguments as Record<string, unknown> | undefined, o), {
        method: 'tools/call',
        name: params.name,
      }),
    );
  }
  if (capabilities.resources) {
    server.setRequestHandler('resources/list', (params, context) =>
      forward(context, (o) => upstream.listResources(cursorOf(params), fresh(o))),
    );
    server.setRequestHandler('resources/templates/list', (params, context) =>
      forward(context, (o) => upstream.listResourceTemplates(cursorOf(params), fresh(o))),
    );
    server.setRequestHandler('resources/read', (params, context) =>
      forward(context, (o) => upstream.readResource(params.uri, fresh(o)), { method: 'resources/read', name: params.uri }),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', (params, context) =>
      forward(context, (o) => upstream.listPrompts(cursorOf(params), fresh(o))),
    );
    server.setRequestHandler('prompts/get', (params, context) =>
      forward(context, (o) => upstream.getPrompt(params.name, params.arguments, o), { method: 'prompts/get', name: params.name }),
    );
  }
  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', (params, context) => {
      const { _meta: _ignored, ...rest } = params as typeof params & { _meta?: unknown };
      return forward(context, (o) => upstream.complete(rest, o));
    });
  }
  forwardNotifications(upstream, server);
  return server;
}

/**
 * Passes the notifications of `upstream` that `server` serves on (list changes, resource updates) down, and a
 * legacy downstream client's roots changes up. Called for each upstream client a bridge server is given (a server
 * restarted under `wiremcp dev` is a new client).
 */
export function forwardNotifications(upstream: McpClient, server: McpServer): void {
  const capabilities = upstream.serverCapabilities ?? {};
  if (capabilities.tools) upstream.onToolsListChanged(() => server.notifyToolListChanged());
  if (capabilities.resources) {
    upstream.onResourcesListChanged(() => server.notifyResourceListChanged());
    if (capabilities.resources.subscribe === true) upstream.onResourceUpdated(({ uri }) => server.notifyResourceUpdated(uri));
  }
  if (capabilities.prompts) upstream.onPromptsListChanged(() => server.notifyPromptListChanged());
  // A legacy downstream client's roots changed: the upstream server hears it (a 2026-07-28 server asks each time).
  server.onrootslistchanged = () => void upstream.notifyRootsListChanged().catch(() => {});
}

function cursorOf(params: { cursor?: string } | undefined): { cursor?: string } {
  return params?.cursor === undefined ? {} : { cursor: params.cursor };
}
