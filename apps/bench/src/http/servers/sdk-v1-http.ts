// The workload on the official SDK v1 (1.32.2) over Streamable HTTP, sessionful, as its documentation wires it on
// node:http: one McpServer and one StreamableHTTPServerTransport per session (created on initialize, found by
// Mcp-Session-Id afterwards), JSON responses (`enableJsonResponse`), zod shapes for the tools.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { sdkV1WorkloadServer } from '../../servers/sdk-v1-workload.js';
import { announce, readBody } from './ready.js';

const transports = new Map<string, StreamableHTTPServerTransport>();

const http = createServer((req, res) => {
  void (async () => {
    const body = req.method === 'POST' ? (JSON.parse(await readBody(req)) as unknown) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      transport.onclose = () => void (transport!.sessionId && transports.delete(transport!.sessionId));
      await sdkV1WorkloadServer('bench-sdk-v1-http').connect(transport);
    }
    if (transport === undefined) return void res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  })();
});
http.listen(0, '127.0.0.1', () => announce(http));
