// The hand-written baseline over HTTP: the practical limit of a JavaScript MCP server on node:http. Per POST: read
// the body, JSON.parse → switch on the method → JSON.stringify, one `res.end`. No validation. Legacy sessions are a
// Map from a random id to a tiny record (what a minimal sessionful server must keep); a request whose params._meta
// carries the 2026-07-28 version gets the modern shape (resultType, _meta.serverInfo) and needs no session.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  conjugate,
  conjugateResult,
  CONJUGATE_DESCRIPTION,
  CONJUGATE_INPUT_SCHEMA,
  CONJUGATE_OUTPUT_SCHEMA,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
} from '../../workload.js';
import { META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../wire.js';
import { announce, readBody } from './ready.js';

const SERVER_INFO = { name: 'baseline-http', version: '1.0.0' };
const TOOLS = [
  { name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA },
  { name: 'conjugate', description: CONJUGATE_DESCRIPTION, inputSchema: CONJUGATE_INPUT_SCHEMA, outputSchema: CONJUGATE_OUTPUT_SCHEMA },
];
const sessions = new Map<string, { version: string; initialized: boolean }>();

type Message = {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: Record<string, string>; protocolVersion?: string; _meta?: Record<string, unknown> };
};

function result(message: Message): Record<string, unknown> | undefined {
  const params = message.params;
  if (message.method === 'tools/call') {
    const args = params?.arguments;
    if (params?.name === 'echo') return { content: [{ type: 'text', text: args?.text }] };
    const row = conjugate(args?.verb ?? '', args?.tense ?? '', args?.person ?? '');
    return row ? conjugateResult(row) : { content: [{ type: 'text', text: 'not in the table' }], isError: true };
  }
  if (message.method === 'tools/list') return { tools: TOOLS };
  if (message.method === 'server/discover')
    return { supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {} }, serverInfo: SERVER_INFO };
  return undefined;
}

const server = createServer((req, res) => {
  if (req.method === 'DELETE') {
    sessions.delete(String(req.headers['mcp-session-id']));
    return void res.writeHead(200).end();
  }
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
  void readBody(req).then((body) => {
    const message = JSON.parse(body) as Message;
    const modern = message.params?._meta?.[META_PROTOCOL_VERSION] !== undefined;
    if (message.method === 'initialize') {
      const id = randomUUID();
      sessions.set(id, { version: message.params?.protocolVersion ?? '2025-11-25', initialized: false });
      const answer = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO };
      res
        .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer }));
      return;
    }
    if (!modern) {
      const session = sessions.get(String(req.headers['mcp-session-id']));
      if (session === undefined) return void res.writeHead(404).end();
      if (message.id === undefined) {
        if (message.method === 'notifications/initialized') session.initialized = true;
        return void res.writeHead(202).end();
      }
    }
    let answer = result(message);
    if (answer === undefined) {
      return void res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
    }
    if (modern) {
      answer = { resultType: 'complete', ...answer, _meta: { [META_SERVER_INFO]: SERVER_INFO } };
      if (message.method === 'tools/list' || message.method === 'server/discover')
        Object.assign(answer, { ttlMs: 0, cacheScope: 'public' });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer }));
  });
});
server.listen(0, '127.0.0.1', () => announce(server));
