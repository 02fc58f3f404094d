/**
 * Connecting the official MCP TypeScript clients — v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`) — to our built server bins over stdio, behind one small interface, with a
 * wire tap that records every message the client's transport sends and receives (the evidence for which
 * era was negotiated and what travelled). Every connection is tracked; `closeAll()` closes the clients,
 * checks that their server processes are gone, and kills any leftover (including the short-lived probe
 * process the v2 client spawns in `auto` mode).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import type { CompleteResultOf, InputParamsOf, JsonObject } from '@wiremcp/protocol';
import { fileURLToPath } from 'node:url';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The everything server's committed bin (it runs `servers/everything/dist/bin.js`). */
export const EVERYTHING_BIN = fileURLToPath(new URL('../../../servers/everything/bin/wiremcp-everything.js', import.meta.url));
/** The grammar server's built bin. */
export const GRAMMAR_BIN = fileURLToPath(new URL('../../../servers/grammar/dist/bin.js', import.meta.url));
/** True when the grammar bin has been written and built. */
export const GRAMMAR_BUILT = existsSync(GRAMMAR_BIN);

/**
 * Which official client, and how it negotiates: v1; v2 with its default (legacy); v2 with
 * `versionNegotiation: 'auto'` (probe with server/discover); v2 pinned to 2026-07-28.
 */
export type Flavor = 'v1' | 'v2' | 'v2-auto' | 'v2-pin';

/** Any JSON object, as it travels (what the tests inspect is checked by their assertions). */
type Json = JsonObject;

/** What a test client answers to sampling, elicitation and roots (legacy requests and modern input requests alike). */
export interface Answers {
  sampling?: (params: InputParamsOf<'sampling/createMessage'>) => Json;
  elicitation?: (params: InputParamsOf<'elicitation/create'>) => Json;
  roots?: (params: Json) => Json;
}

/** Every message the client's transport sent and received, in order. */
export interface WireLog {
  sent: WireMessage[];
  received: WireMessage[];
}

/** A JSON-RPC message as the wire tap records it: the fields the tests read, typed; the rest is the peer's. */
export interface WireMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: {
    name?: string;
    requestId?: string | number;
    inputResponses?: Json;
    _meta?: Json;
    [key: string]: unknown;
  };
  result?: {
    resultType?: string;
    protocolVersion?: string;
    tools?: Array<{ name: string }>;
    inputRequests?: Record<string, { method: string; params?: Json }>;
    [key: string]: unknown;
  };
  error?: { code: number; message: string; data?: unknown };
}

/** Options of one call. */
export interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  timeout?: number;
}

/** The methods both official clients share, with the results typed by the spec (either era's shape). */
export interface CommonClient {
  listTools(params?: { cursor?: string }): Promise<CompleteResultOf<'tools/list'>>;
  listResources(params?: { cursor?: string }): Promise<CompleteResultOf<'resources/list'>>;
  listResourceTemplates(params?: { cursor?: string }): Promise<CompleteResultOf<'resources/templates/list'>>;
  readResource(params: { uri: string }): Promise<CompleteResultOf<'resources/read'>>;
  subscribeResource(params: { uri: string }): Promise<Json>;
  unsubscribeResource(params: { uri: string }): Promise<Json>;
  listPrompts(params?: { cursor?: string }): Promise<CompleteResultOf<'prompts/list'>>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<CompleteResultOf<'prompts/get'>>;
  complete(params: Json): Promise<CompleteResultOf<'completion/complete'>>;
  setLoggingLevel(level: string): Promise<Json>;
  ping(): Promise<Json>;
  close(): Promise<void>;
}

/** One official client connected to one of our servers. */
export interface OfficialConnection {
  flavor: Flavor;
  client: CommonClient;
  /** The v2 client (flavors `v2`, `v2-auto`). */
  v2: V2Client | undefined;
  wire: WireLog;
  /** The server process id. */
  pid: number | undefined;
  /** What the server wrote to stderr. */
  stderr: () => string;
  callTool(params: { name: string; arguments?: Json; _meta?: Json }, options?: CallOptions): Promise<CompleteResultOf<'tools/call'>>;
  /** Registers a handler for a server notification (use before the notification can arrive). */
  onNotification(method: NotificationMethod, handler: (params: Json) => void): void;
  /** The server's `serverInfo`. */
  serverInfo(): Json | undefined;
}

/** Notifications a test can listen for. */
export type NotificationMethod =
  | 'notifications/message'
  | 'notifications/resources/updated'
  | 'notifications/resources/list_changed'
  | 'notifications/tools/list_changed'
  | 'notifications/prompts/list_changed';

export const V1_NOTIFICATION_SCHEMAS = {
  'notifications/message': LoggingMessageNotificationSchema,
  'notifications/resources/updated': ResourceUpdatedNotificationSchema,
  'notifications/resources/list_changed': ResourceListChangedNotificationSchema,
  'notifications/tools/list_changed': ToolListChangedNotificationSchema,
  'notifications/prompts/list_changed': PromptListChangedNotificationSchema,
} as const;

interface Tracked {
  connection: OfficialConnection;
  closed: boolean;
}

const open: Tracked[] = [];

/** Records what `transport` sends and delivers, without changing it (any transport of either SDK). */
export function tap(transport: { send: (message: WireMessage, ...rest: never[]) => Promise<void>; onmessage?: unknown }): WireLog {
  const wire: WireLog = { sent: [], received: [] };
  const send = transport.send.bind(transport);
  transport.send = (message: WireMessage, ...rest: never[]) => {
    wire.sent.push(message);
    return send(message, ...rest);
  };
  let handler: ((message: WireMessage, extra?: unknown) => void) | undefined;
  const wrapped = (message: WireMessage, extra?: unknown) => {
    wire.received.push(message);
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler ? wrapped : undefined),
    set: (next: typeof handler) => {
      handler = next;
    },
  });
  return wire;
}

function collect(stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null | undefined): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

/** Connects an official client of `flavor` to the server started by `bin` over stdio. */
export async function connectOfficial(
  flavor: Flavor,
  options: { bin?: string; args?: string[]; capabilities?: Json; answers?: Answers } = {},
): Promise<OfficialConnection> {
  const bin = options.bin ?? EVERYTHING_BIN;
  const params = { command: process.execPath, args: [bin, ...(options.args ?? [])], stderr: 'pipe' as const };
  const capabilities = options.capabilities ?? {};
  const answers = options.answers ?? {};
  // The SDKs type each answer by its own schemas; the test's answers are JSON in the spec's shape.
  const ask = <K extends keyof Answers>(kind: K, requestParams: unknown): never => {
    const answer = answers[kind] as ((params: unknown) => Json) | undefined;
    if (!answer) throw new Error(`this test client has no answer for ${kind}`);
    return answer(requestParams) as never;
  };

  let connection: OfficialConnection;
  if (flavor === 'v1') {
    const client = new V1Client({ name: 'interop-v1', version: '1.0.0' }, { capabilities });
    if ('sampling' in capabilities) client.setRequestHandler(CreateMessageRequestSchema, (request) => ask('sampling', request.params));
    if ('elicitation' in capabilities) client.setRequestHandler(ElicitRequestSchema, (request) => ask('elicitation', request.params));
    if ('roots' in capabilities) client.setRequestHandler(ListRootsRequestSchema, (request) => ask('roots', request.params ?? {}));
    const transport = new V1StdioClientTransport(params);
    const stderr = collect(transport.stderr as NodeJS.ReadableStream | null);
    const wire = tap(transport as unknown as Parameters<typeof tap>[0]);
    connection = {
      flavor,
      client: client as unknown as CommonClient,
      v2: undefined,
      wire,
      get pid() {
        return transport.pid ?? undefined;
      },
      stderr,
      callTool: (toolParams, callOptions) =>
        client.callTool(toolParams, CallToolResultSchema, callOptions) as Promise<CompleteResultOf<'tools/call'>>,
      onNotification: (method, handler) =>
        // The five schemas differ in their method literal only; the handler reads params, which all have.
        client.setNotificationHandler(V1_NOTIFICATION_SCHEMAS[method] as typeof LoggingMessageNotificationSchema, (n) =>
          handler(n.params as Json),
        ),
      serverInfo: () => client.getServerVersion(),
    };
    open.push({ connection, closed: false });
    await client.connect(transport);
  } else {
    const client = new V2Client(
      { name: 'interop-v2', version: '1.0.0' },
      {
        capabilities,
        ...(flavor === 'v2-auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
        ...(flavor === 'v2-pin' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    if ('sampling' in capabilities) client.setRequestHandler('sampling/createMessage', (request) => ask('sampling', request.params));
    if ('elicitation' in capabilities) client.setRequestHandler('elicitation/create', (request) => ask('elicitation', request.params));
    if ('roots' in capabilities) client.setRequestHandler('roots/list', (request) => ask('roots', request.params ?? {}));
    const transport = new V2StdioClientTransport(params);
    const stderr = collect(transport.stderr as NodeJS.ReadableStream | null);
    const wire = tap(transport as unknown as Parameters<typeof tap>[0]);
    connection = {
      flavor,
      client: client as unknown as CommonClient,
      v2: client,
      wire,
      get pid() {
        return transport.pid ?? undefined;
      },
      stderr,
      callTool: (toolParams, callOptions) =>
        client.callTool(toolParams as Parameters<V2Client['callTool']>[0], callOptions) as Promise<CompleteResultOf<'tools/call'>>,
      onNotification: (method, handler) => client.setNotificationHandler(method, (n) => handler(n.params as Json)),
      serverInfo: () => client.getServerVersion(),
    };
    open.push({ connection, closed: false });
    await client.connect(transport);
  }
  return connection;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Server processes started by this test process that are still running: our bins among this process's
 * children (Linux `/proc`; an empty list elsewhere).
 */
export function runningServerProcesses(): number[] {
  if (!existsSync('/proc')) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(EVERYTHING_BIN) || cmdline.includes(GRAMMAR_BIN)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

/**
 * Closes every connection opened since the last call (the client runs its transport's shutdown: stdin EOF,
 * then signals), waits for the server processes to be gone, and kills any that are not. Resolves with the
 * pids it had to kill (empty when every process ended on its own).
 */
export async function closeAll(): Promise<number[]> {
  const pending = open.splice(0);
  const pids = pending.map((entry) => entry.connection.pid).filter((pid): pid is number => pid !== undefined);
  await Promise.all(pending.map((entry) => entry.connection.client.close().catch(() => {})));
  await waitFor(() => pids.every((pid) => !alive(pid)) && runningServerProcesses().length === 0, 3000);
  const leftovers = [...new Set([...pids.filter(alive), ...runningServerProcesses()])];
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return leftovers;
}

/** Answers a client gives in these tests. */
export const TEST_ANSWERS: Answers = {
  sampling: (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `model says: ${firstText(params.messages[0]?.content)}` },
    model: 'interop-test-model',
    stopReason: 'endTurn',
  }),
  elicitation: (params) => {
    if (params.mode === 'url') return { action: 'accept' };
    const properties: Record<string, { type?: string }> = params.requestedSchema.properties;
    const content: Json = {};
    for (const [name, schema] of Object.entries(properties)) {
      content[name] =
        schema.type === 'boolean'
          ? true
          : schema.type === 'number' || schema.type === 'integer'
            ? 42
            : schema.type === 'array'
              ? []
              : `${name}-answer`;
    }
    return { action: 'accept', content };
  },
  roots: () => ({ roots: [{ uri: 'file:///interop/workspace', name: 'workspace' }] }),
};

/** Client capabilities that unlock every server feature. */
export const ALL_CLIENT_CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } };

/** The text of a sampling message's content (one block, or the first of several). */
function firstText(content: unknown): string {
  const block = (Array.isArray(content) ? content[0] : content) as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : '';
}

/** Messages of `wire` that are server→client requests (method and id). */
export function serverRequests(wire: WireLog): WireMessage[] {
  return wire.received.filter((message) => typeof message.method === 'string' && message.id !== undefined);
}

/** Results of `wire` whose `resultType` is `input_required`. */
export function inputRequiredResults(wire: WireLog): Array<NonNullable<WireMessage['result']>> {
  return wire.received.flatMap((message) => (message.result?.resultType === 'input_required' ? [message.result] : []));
}

/** The text of content block `index` of a result, when it is a text block. */
export function textOf(result: { content?: ReadonlyArray<{ type: string }> }, index = 0): string | undefined {
  const block = result.content?.[index] as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : undefined;
}

/** The text of resource contents `index` of a `resources/read` result, when it is text. */
export function resourceTextOf(result: { contents: ReadonlyArray<{ uri: string }> }, index = 0): string | undefined {
  const contents = result.contents[index] as { text?: unknown } | undefined;
  return typeof contents?.text === 'string' ? contents.text : undefined;
}

/**
 * A round trip to the server (`tools/list`, in either era): whatever it sent before answering — notifications that
 * follow a result, list changes announced a tick after the call that caused them — has arrived when this resolves.
 */
export async function roundTrip(connection: OfficialConnection): Promise<void> {
  await connection.client.listTools();
}

/** The era a connection ended up in, read from the wire: an initialize exchange, or the modern `_meta` on requests. */
export function eraOnTheWire(connection: OfficialConnection): { era: 'legacy' | 'modern'; version: string | undefined } {
  const initialize = connection.wire.sent.find((message) => message.method === 'initialize');
  if (initialize) {
    const response = connection.wire.received.find((message) => message.id === initialize.id);
    return { era: 'legacy', version: response?.result?.protocolVersion };
  }
  const version = (message: WireMessage): unknown => message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  const request = connection.wire.sent.find((message) => version(message) !== undefined);
  const found = request === undefined ? undefined : version(request);
  return { era: 'modern', version: typeof found === 'string' ? found : undefined };
}
