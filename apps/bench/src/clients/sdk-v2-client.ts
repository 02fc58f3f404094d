// The official SDK v2 client (@modelcontextprotocol/client 2.4.0), as its documentation shows: Client over
// StdioClientTransport. Legacy is its default; the modern era is what `versionNegotiation: { mode: 'auto' }`
// negotiates with a server that answers server/discover.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { argumentsFor, type ToolName } from '../workload.js';
import type { Era } from '../wire.js';
import type { ClientSession, ServerCommand } from './session.js';

export async function openSdkV2Session(server: ServerCommand, era: Era): Promise<ClientSession> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: 'inherit' });
  const client = new Client({ name: 'bench-sdk-v2', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(transport);
  return {
    serverPid: transport.pid!,
    listTools: () => client.listTools(),
    call: (tool: ToolName, i: number) => client.callTool({ name: tool, arguments: argumentsFor(tool, i) }),
    close: () => client.close(),
  };
}
