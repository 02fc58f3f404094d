// The official SDK v1 client (@modelcontextprotocol/sdk 1.32.2), as its documentation shows: Client over
// StdioClientTransport. It speaks the legacy era only.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { argumentsFor, type ToolName } from '../workload.js';
import type { Era } from '../wire.js';
import type { ClientSession, ServerCommand } from './session.js';

export async function openSdkV1Session(server: ServerCommand, era: Era): Promise<ClientSession> {
  if (era !== 'legacy') throw new Error('the v1 SDK client speaks the legacy era only');
  const transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: 'inherit' });
  const client = new Client({ name: 'bench-sdk-v1', version: '1.0.0' });
  await client.connect(transport);
  return {
    serverPid: transport.pid!,
    listTools: () => client.listTools(),
    call: (tool: ToolName, i: number) => client.callTool({ name: tool, arguments: argumentsFor(tool, i) }),
    close: () => client.close(),
  };
}
