/**
 * Recovery from a `HeaderMismatch` (-32020) answer to a modern `tools/call`: the spec asks the client to list the
 * tools again (the tool's `inputSchema` may have changed, or this transport never saw it) and retry the call with
 * the right `Mcp-Param-*` headers. The listing is the transport's own (its answer never reaches the engine), and
 * the call is retried only when the headers it would carry changed.
 */
import type { RequestId, RpcRequest } from '@wiremcp/protocol';
import { modernRequestHeaders, type ToolHeaderRegistry } from './modern-headers.js';

/** Requests a transport sends on its own behalf. */
export interface InternalRequester {
  /** Sends `request` and resolves with its result (the tool headers of a `tools/list` page are learnt on the way). */
  request(request: RpcRequest, era: 'modern' | 'legacy', initialize?: boolean): Promise<unknown>;
  /** A request id that cannot collide with the engine's (which are numbers). */
  nextId(kind: string): RequestId;
}

/** Most pages one refresh reads. */
const MAX_PAGES = 100;

/**
 * Lists every tool again with the `_meta` of the refused call, then tells whether the call's `Mcp-Param-*`
 * headers differ from `sent` (a retry can only help then). Any failure of the listing means no retry.
 */
export async function refreshToolHeaders(
  internal: InternalRequester,
  tools: ToolHeaderRegistry,
  params: Record<string, unknown> | undefined,
  sent: Readonly<Record<string, string>>,
): Promise<boolean> {
  const version = sent['mcp-protocol-version'];
  if (params === undefined || version === undefined) return false;
  const meta = params._meta;
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const listParams: Record<string, unknown> = cursor === undefined ? { _meta: meta } : { _meta: meta, cursor };
      const result = (await internal.request(
        { jsonrpc: '2.0', id: internal.nextId('tools-list'), method: 'tools/list', params: listParams },
        'modern',
      )) as {
        nextCursor?: unknown;
      } | null;
      cursor = typeof result?.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
  } catch {
    return false;
  }
  return !sameParamHeaders(sent, modernRequestHeaders({}, 'tools/call', params, version, tools));
}

function sameParamHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const params = (headers: Readonly<Record<string, string>>): string[] =>
    Object.keys(headers)
      .filter((name) => name.startsWith('mcp-param-'))
      .sort()
      .map((name) => `${name}:${headers[name]}`);
  return params(a).join('\n') === params(b).join('\n');
}
