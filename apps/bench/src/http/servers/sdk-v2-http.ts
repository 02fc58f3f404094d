// The workload on the official SDK v2 (2.4.0) over Streamable HTTP, sessionful, as its documentation wires it on
// node:http: one McpServer and one NodeStreamableHTTPServerTransport (@modelcontextprotocol/node) per session, JSON
// responses.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { announce, readBody } from './ready.js';
import { sdkV2WorkloadServer } from '../../servers/sdk-v2-workload.js';

const transports = new Map<string, NodeStreamableHTTPServerTransport>();
const http = createServer((req, res) => {
  void (async () => {
    const body = req.method === 'POST' ? (JSON.parse(await readBody(req)) as unknown) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined && isInitializeRequest(body)) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, transport!),
      });
      transport.onclose = () => void (transport!.sessionId && transports.delete(transport!.sessionId));
      await sdkV2WorkloadServer('bench-sdk-v2-http').connect(transport);
    }
    if (transport === undefined) return void res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  })();
});
http.listen(0, '127.0.0.1', () => announce(http));
