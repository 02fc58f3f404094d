// The workload on the official SDK v1 (1.32.2) over Streamable HTTP, sessionful, as its documentation wires it on
// node:http: one McpServer and one StreamableHTTPServerTransport per session (created on initialize, found by
// Mcp-Session-Id afterwards), JSON responses (`enableJsonResponse`), zod shapes for the tools.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONJUGATE_DESCRIPTION, conjugate, conjugateResult, ECHO_DESCRIPTION, PERSONS, TENSES, VERBS } from '../../workload.js';
import { announce, readBody } from './ready.js';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'bench-sdk-v1-http', version: '1.0.0' });
  server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'conjugate',
    {
      description: CONJUGATE_DESCRIPTION,
      inputSchema: { verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS) },
      outputSchema: { verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS), form: z.string() },
    },
    async ({ verb, tense, person }) => {
      const row = conjugate(verb, tense, person);
      if (!row) throw new Error(`${verb} ${tense} ${person} is not in the table`);
      return conjugateResult(row);
    },
  );
  return server;
}

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
      await makeServer().connect(transport);
    }
    if (transport === undefined) return void res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  })();
});
http.listen(0, '127.0.0.1', () => announce(http));
