/**
 * The 2026-07-28 request headers, mirrored from the body: `MCP-Protocol-Version` (= `_meta` protocolVersion),
 * `Mcp-Method`, `Mcp-Name` for the methods `mirroredNameField` of `@wiremcp/protocol` names, and `Mcp-Param-{Name}`
 * for the `tools/call` arguments the tool's `inputSchema` annotates with `x-mcp-header` — learnt from the `tools/list`
 * results this transport carried, from which tools with invalid annotations are dropped.
 */
import {
  encodeHeaderValue,
  eraOf,
  headerText,
  metaOf,
  MetaKey,
  mirroredName,
  scanToolHeaders,
  valueAt,
  type MirroredParam,
} from '@wiremcp/protocol';

/** The modern protocol version a request's `_meta` names, if it names one. */
export function modernVersionOf(message: { params?: unknown }): string | undefined {
  const version = metaOf(message.params)?.[MetaKey.protocolVersion];
  return typeof version === 'string' && eraOf(version) === 'modern' ? version : undefined;
}

/** A tool dropped from a `tools/list` result, and why. */
export interface DroppedTool {
  readonly name: string;
  readonly reason: string;
}

/** Most tools whose mirrored arguments are remembered (the oldest are forgotten first). */
const MAX_TOOLS = 10_000;

/** The mirrored arguments of each tool, as the last `tools/list` pages said. */
export class ToolHeaderRegistry {
  readonly #params = new Map<string, readonly MirroredParam[]>();

  /** Number of tools with mirrored arguments remembered. */
  get size(): number {
    return this.#params.size;
  }

  /** True once the tool's annotations are known (from a page that listed it). */
  knows(name: string): boolean {
    return this.#params.has(name);
  }

  /**
   * Learns the tools of one `tools/list` page; returns the tools to keep (those with valid annotations, in order)
   * and the ones dropped.
   */
  learn(tools: readonly unknown[]): { kept: unknown[]; dropped: DroppedTool[] } {
    const kept: unknown[] = [];
    const dropped: DroppedTool[] = [];
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') {
        kept.push(tool);
        continue;
      }
      const scan = scanToolHeaders((tool as { inputSchema?: unknown }).inputSchema);
      this.#params.delete(name);
      if (!scan.valid) {
        dropped.push({ name, reason: scan.reason });
        continue;
      }
      this.#params.set(name, scan.params);
      if (this.#params.size > MAX_TOOLS) this.#params.delete(this.#params.keys().next().value as string);
      kept.push(tool);
    }
    return { kept, dropped };
  }

  /**
   * A `tools/list` response with the tools of invalid annotations removed (the same object when none was);
   * `report` hears about each one dropped.
   */
  filter(message: unknown, result: Record<string, unknown>, report: (dropped: DroppedTool) => void): unknown {
    if (!Array.isArray(result.tools)) return message;
    const { kept, dropped } = this.learn(result.tools);
    if (dropped.length === 0) return message;
    for (const tool of dropped) report(tool);
    return { ...(message as object), result: { ...result, tools: kept } };
  }

  /** The `Mcp-Param-*` headers of a call of `name` with `args` (nulls and absent values omitted). */
  headersFor(name: string, args: unknown, into: Record<string, string>): void {
    const params = this.#params.get(name);
    if (params === undefined || params.length === 0) return;
    for (const param of params) {
      const text = headerText(valueAt(args, param.path));
      if (text !== undefined) into[param.header] = text;
    }
  }
}

/**
 * The headers of a modern request: protocol version, method, name (plain or sentinel-encoded) and mirrored tool
 * arguments. `base` holds the transport's fixed headers (content type and accept).
 */
export function modernRequestHeaders(
  base: Readonly<Record<string, string>>,
  method: string,
  params: Record<string, unknown> | undefined,
  version: string,
  tools: ToolHeaderRegistry,
): Record<string, string> {
  const headers: Record<string, string> = { ...base, 'mcp-protocol-version': version, 'mcp-method': method };
  const name = mirroredName(method, params);
  if (name !== undefined) {
    headers['mcp-name'] = encodeHeaderValue(name);
    if (method === 'tools/call') tools.headersFor(name, params?.arguments, headers);
  }
  return headers;
}
