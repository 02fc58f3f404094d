/**
 * The proxy's server side: an `McpServer` that serves whatever an upstream `McpClient` is connected to. Each
 * request of the downstream client is re-issued upstream by the client, so the two sides negotiate their eras
 * independently — a 2026-07-28 host can reach a 2024-11-05 server and the other way round; the `McpServer`
 * and the `McpClient` translate.
 *
 * Forwarded: tools, resources (list, templates, read), prompts, completion, list-changed notifications,
 * progress and cancellation. Not forwarded: resource subscriptions, and the upstream server's own requests
 * for sampling, elicitation or roots (the bridge declares no client capabilities upstream).
 */
import type { CallOptions, McpClient } from '@wiremcp/client';
import type { Progress } from '@wiremcp/jsonrpc';
import { McpServer, type HandlerContext } from '@wiremcp/server';

/** Keys the bridge's own server stamps on 2026-07-28 results; the upstream ones are dropped. */
const STAMPED = new Set(['resultType', 'ttlMs', 'cacheScope']);

function unstamped<T extends object>(result: T): T {
  return Object.fromEntries(Object.entries(result).filter(([key]) => !STAMPED.has(key))) as T;
}

function forwardOptions(context: HandlerContext): CallOptions {
  return {
    signal: context.signal,
    onprogress: (progress: Progress) => void context.sendProgress(progress.progress, progress.total, progress.message).catch(() => {}),
  };
}

/** Builds the bridge server for a connected `upstream` client; see the module comment. */
export function createBridgeServer(upstream: McpClient): McpServer {
  const capabilities = upstream.serverCapabilities ?? {};
  const info = upstream.serverInfo ?? { name: 'wiremcp-proxy', version: '0.1.0' };
  const server = new McpServer(
    { ...info },
    {
      ...(upstream.instructions === undefined ? {} : { instructions: upstream.instructions }),
      capabilities: {
        tools: capabilities.tools !== undefined,
        resources: capabilities.resources === undefined ? false : { subscribe: false },
        prompts: capabilities.prompts !== undefined,
        completions: capabilities.completions !== undefined,
      },
      // Fresh from upstream on every request: the upstream server's own caching hints are not known here.
      caching: { default: { ttlMs: 0, cacheScope: 'private' } },
    },
  );
  const fresh = (context: HandlerContext) => ({ ...forwardOptions(context), fresh: true });
  if (capabilities.tools) {
    server.setRequestHandler('tools/list', async (params, context) =>
      unstamped(await upstream.listTools(cursorOf(params), fresh(context))),
    );
    server.setRequestHandler('tools/call', async (params, context) =>
      unstamped(await upstream.callTool(params.name, params.arguments as Record<string, unknown> | undefined, forwardOptions(context))),
    );
    upstream.onToolsListChanged(() => server.notifyToolListChanged());
  }
  if (capabilities.resources) {
    server.setRequestHandler('resources/list', async (params, context) =>
      unstamped(await upstream.listResources(cursorOf(params), fresh(context))),
    );
    server.setRequestHandler('resources/templates/list', async (params, context) =>
      unstamped(await upstream.listResourceTemplates(cursorOf(params), fresh(context))),
    );
    server.setRequestHandler('resources/read', async (params, context) =>
      unstamped(await upstream.readResource(params.uri, fresh(context))),
    );
    upstream.onResourcesListChanged(() => server.notifyResourceListChanged());
  }
  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', async (params, context) =>
      unstamped(await upstream.listPrompts(cursorOf(params), fresh(context))),
    );
    server.setRequestHandler('prompts/get', async (params, context) =>
      unstamped(await upstream.getPrompt(params.name, params.arguments, forwardOptions(context))),
    );
    upstream.onPromptsListChanged(() => server.notifyPromptListChanged());
  }
  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', async (params, context) => {
      const { _meta: _ignored, ...rest } = params as typeof params & { _meta?: unknown };
      return unstamped(await upstream.complete(rest, forwardOptions(context)));
    });
  }
  return server;
}

function cursorOf(params: { cursor?: string } | undefined): { cursor?: string } {
  return params?.cursor === undefined ? {} : { cursor: params.cursor };
}
