// The MCP clients of the HTTP pair rows, each written as its documentation shows: wiremcp's McpClient over
// `httpTransportFactory` with `nodeFetch` (the era configured, no standalone GET stream), and the official SDK v2 Client over its
// StreamableHTTPClientTransport (legacy by default, `versionNegotiation: { mode: 'auto' }` for 2026-07-28). A pair
// row runs one client (one session) with its calls in flight concurrently, as an application would.
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { nodeFetch } from '@wiremcp/transport-http/node';
import { argumentsFor, type ToolName } from '../workload.js';
import type { Era } from '../wire.js';

/** A connected MCP client: `call` resolves with the tools/call result as the client returns it. */
export interface PairClient {
  call(tool: ToolName, i: number): Promise<unknown>;
  close(): Promise<void>;
}

/** The MCP clients a pair row can use. */
export type PairClientKind = 'wiremcp' | 'sdk-v2';

async function wiremcp(url: URL, era: Era): Promise<PairClient> {
  const client = new McpClient({ name: 'bench-wiremcp-http', version: '1.0.0' }, { era });
  const fetch = nodeFetch();
  await client.connect(httpTransportFactory(url, { standaloneStream: false, fetch }));
  await client.listAllTools();
  return {
    call: (tool, i) => client.callTool(tool, argumentsFor(tool, i)),
    close: async () => {
      await client.close();
      fetch.close();
    },
  };
}

async function sdkV2(url: URL, era: Era): Promise<PairClient> {
  const client = new V2Client(
    { name: 'bench-sdk-v2-http', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new V2Transport(url));
  await client.listTools();
  return {
    call: (tool, i) => client.callTool({ name: tool, arguments: argumentsFor(tool, i) }),
    close: () => client.close(),
  };
}

/** Connects the client `kind` to the endpoint in `era` (handshake and tools/list done). */
export function openPairClient(kind: PairClientKind, url: URL, era: Era): Promise<PairClient> {
  return kind === 'wiremcp' ? wiremcp(url, era) : sdkV2(url, era);
}
