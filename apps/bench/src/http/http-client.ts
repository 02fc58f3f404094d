// The raw HTTP client of the HTTP bench: node:http with a keep-alive agent, pre-serialised request bodies, one
// JSON.parse per answer (or the one `data:` line of an SSE answer), every answer checked. It does the least an MCP
// client can do over HTTP, so that what a row costs is (nearly) all server. The same bytes go to every server.
import { Agent, request } from 'node:http';
import { argumentsFor, checkResult, type ToolName } from '../workload.js';
import { LEGACY_VERSION, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, MODERN_VERSION, type Era } from '../wire.js';

const CLIENT_INFO = { name: 'bench-raw-http', version: '1.0.0' };
const MODERN_META = { [META_PROTOCOL_VERSION]: MODERN_VERSION, [META_CLIENT_CAPABILITIES]: {}, [META_CLIENT_INFO]: CLIENT_INFO };
/** Calls cycle through this many argument sets (as over stdio). */
const CYCLE = 300;
const ACCEPT = 'application/json, text/event-stream';

/** One answer: the status, the headers the client reads, and the JSON-RPC message. */
interface Answer {
  status: number;
  sessionId: string | undefined;
  message: { id?: unknown; result?: unknown; error?: { message?: string } } | undefined;
}

/** The pre-serialised bodies of the calls, per tool, for one era (ids are patched in per call). */
function bodies(era: Era, tool: ToolName): string[] {
  return Array.from({ length: CYCLE }, (_, i) => {
    const params =
      era === 'modern'
        ? { name: tool, arguments: argumentsFor(tool, i), _meta: MODERN_META }
        : { name: tool, arguments: argumentsFor(tool, i) };
    return JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/call', params }).replace('"id":0', '"id":%ID%');
  });
}

function parseAnswer(text: string, contentType: string | undefined): Answer['message'] {
  if (text === '') return undefined;
  if (contentType?.startsWith('text/event-stream')) {
    const line = text.split('\n').find((l) => l.startsWith('data: {') && l.includes('"id"'));
    return line === undefined ? undefined : (JSON.parse(line.slice(6)) as Answer['message']);
  }
  return JSON.parse(text) as Answer['message'];
}

/** A client of one MCP endpoint; sessions (legacy) are opened on it one by one. */
export class HttpBenchClient {
  readonly #url: URL;
  readonly #era: Era;
  readonly #agent: Agent;
  readonly #bodies: Record<ToolName, string[]>;
  #nextId = 1;

  constructor(url: URL, era: Era, concurrency: number) {
    this.#url = url;
    this.#era = era;
    this.#agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
    this.#bodies = { echo: bodies(era, 'echo'), conjugate: bodies(era, 'conjugate') };
  }

  /** Opens a legacy session (initialize, then notifications/initialized); resolves with its id. */
  async openSession(): Promise<string> {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: this.#nextId++,
      method: 'initialize',
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    });
    const answer = await this.#post(init, { 'content-type': 'application/json', accept: ACCEPT });
    if (answer.status !== 200 || answer.sessionId === undefined) throw new Error(`initialize: HTTP ${answer.status}`);
    const headers = this.#sessionHeaders(answer.sessionId);
    const initialized = await this.#post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
    if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
    return answer.sessionId;
  }

  /** The `i`-th call of `tool` (in `sessionId` for legacy rows); rejects when the answer is wrong. */
  async call(tool: ToolName, i: number, sessionId: string | undefined): Promise<void> {
    const id = this.#nextId++;
    const body = this.#bodies[tool][i % CYCLE]!.replace('%ID%', String(id));
    const headers =
      this.#era === 'modern'
        ? {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': MODERN_VERSION,
            'mcp-method': 'tools/call',
            'mcp-name': tool,
          }
        : this.#sessionHeaders(sessionId!);
    const answer = await this.#post(body, headers);
    if (answer.message?.id !== id)
      throw new Error(`${tool} #${i}: HTTP ${answer.status}, ${JSON.stringify(answer.message)?.slice(0, 300)}`);
    const problem = checkResult(tool, i, answer.message.result);
    if (problem !== undefined) throw new Error(problem);
  }

  close(): void {
    this.#agent.destroy();
  }

  #sessionHeaders(sessionId: string): Record<string, string> {
    return { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_VERSION };
  }

  #post(body: string, headers: Record<string, string>): Promise<Answer> {
    // The length is stated, as fetch and the SDKs state it (node:http also adds it for a body given whole to `end`,
    // but a request must not depend on that: a chunked body costs every server more to read).
    const sized = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.#url.hostname, port: this.#url.port, path: this.#url.pathname, method: 'POST', agent: this.#agent, headers: sized },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              const sessionId = res.headers['mcp-session-id'];
              resolve({
                status: res.statusCode ?? 0,
                sessionId: typeof sessionId === 'string' ? sessionId : undefined,
                message: parseAnswer(text, res.headers['content-type']),
              });
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
