// The wiremcp client, as its README shows: McpClient over StdioClientTransport. The era is configured (not
// detected), so the handshake is exactly initialize + initialized (legacy) or server/discover (modern).
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { argumentsFor, type ToolName } from '../workload.js';
import type { Era } from '../wire.js';
import type { ClientSession, ServerCommand } from './session.js';

export async function openWiremcpSession(server: ServerCommand, era: Era, writeBatchBytes?: number): Promise<ClientSession> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: 'inherit', writeBatchBytes });
  const client = new McpClient({ name: 'bench-wiremcp', version: '1.0.0' }, { era });
  await client.connect(transport);
  return {
    serverPid: transport.pid!,
    listTools: () => client.listTools(),
    call: (tool: ToolName, i: number) => client.callTool(tool, argumentsFor(tool, i)),
    close: () => client.close(),
  };
}
