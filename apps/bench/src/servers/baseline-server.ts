// The hand-written baseline: the practical limit of a JavaScript MCP server over stdio. Per input line:
// JSON.parse → switch on the method → JSON.stringify; no validation of anything; all the answers of one
// input chunk leave in one stdout write. It answers both eras: a request whose params._meta carries the
// 2026-07-28 protocol version gets a modern-shaped result (resultType, _meta.serverInfo), others the legacy
// shape, so the cost of the bigger modern envelope is in the baseline too.
import {
  CONJUGATE_DESCRIPTION,
  CONJUGATE_INPUT_SCHEMA,
  CONJUGATE_OUTPUT_SCHEMA,
  conjugate,
  conjugateResult,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
} from '../workload.js';
import { LEGACY_VERSION, META_PROTOCOL_VERSION, META_SERVER_INFO, MODERN_VERSION } from '../wire.js';

const SERVER_INFO = { name: 'baseline', version: '1.0.0' };
const TOOLS = [
  { name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA },
  { name: 'conjugate', description: CONJUGATE_DESCRIPTION, inputSchema: CONJUGATE_INPUT_SCHEMA, outputSchema: CONJUGATE_OUTPUT_SCHEMA },
];
const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

type Message = {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: Record<string, string>; protocolVersion?: string; _meta?: Record<string, unknown> };
};

function result(message: Message): Record<string, unknown> | undefined {
  const params = message.params;
  switch (message.method) {
    case 'tools/call': {
      const args = params?.arguments;
      if (params?.name === 'echo') return { content: [{ type: 'text', text: args?.text }] };
      if (params?.name === 'conjugate') {
        const row = conjugate(args?.verb ?? '', args?.tense ?? '', args?.person ?? '');
        return row ? conjugateResult(row) : { content: [{ type: 'text', text: 'not in the table' }], isError: true };
      }
      return undefined;
    }
    case 'tools/list':
      return { tools: TOOLS };
    case 'initialize': {
      const requested = params?.protocolVersion ?? LEGACY_VERSION;
      const protocolVersion = LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSION;
      return { protocolVersion, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    }
    case 'server/discover':
      return { supportedVersions: [MODERN_VERSION, ...LEGACY_VERSIONS], capabilities: { tools: {} } };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

function answer(line: string): string {
  const message = JSON.parse(line) as Message;
  if (message.id === undefined) return ''; // a notification
  let body = result(message);
  if (body === undefined) {
    return JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }) + '\n';
  }
  if (message.params?._meta?.[META_PROTOCOL_VERSION] !== undefined) {
    body = { resultType: 'complete', ...body, _meta: { [META_SERVER_INFO]: SERVER_INFO } };
    if (message.method === 'tools/list' || message.method === 'server/discover') Object.assign(body, { ttlMs: 0, cacheScope: 'public' });
  }
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: body }) + '\n';
}

let carry = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const text = carry + chunk;
  let start = 0;
  let out = '';
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    if (end > start) out += answer(text.slice(start, end));
    start = end + 1;
  }
  carry = text.slice(start);
  if (out !== '') process.stdout.write(out);
});
