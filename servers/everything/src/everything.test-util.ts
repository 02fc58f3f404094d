/**
 * An in-memory client for the everything server that speaks either era through one interface, so each test
 * can run in both: legacy opens a session with `initialize` and answers the server's requests; modern puts
 * the 2026-07-28 `_meta` on every request and answers input-required results by retrying, as a client would.
 */
import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import {
  MetaKey,
  type CallToolResult,
  type ClientRequestMethod,
  type CompleteResultOf,
  type InputParamsOf,
  type InputRequestMethod,
  type InputRequiredResult,
  type JsonObject,
  type ServerNotificationMap,
  type WithOptionalKeys,
} from '@wiremcp/protocol';
import type { McpServer, RequestHandlerResult, ServerOptions } from '@wiremcp/server';
import { createEverythingServer } from './everything-package.js';

/** The two eras a test runs in. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

/** An answer of the test client to one kind of input request. */
type Answer<M extends InputRequestMethod> = (params: InputParamsOf<M>) => JsonObject;

/** How the test client answers the server (legacy requests and modern input requests alike). */
export interface Answers {
  sampling?: Answer<'sampling/createMessage'>;
  elicitation?: Answer<'elicitation/create'>;
  roots?: Answer<'roots/list'>;
}

/**
 * What a tool call resolves with: the complete result, or — with `followInputs: false` — possibly the
 * input-required one (hence its fields, optional).
 */
export type ToolOutcome = WithOptionalKeys<CallToolResult, 'resultType'> &
  Partial<Pick<InputRequiredResult, 'inputRequests' | 'requestState'>>;

/** What `call` resolves with: the complete result of a spec method (input rounds followed), or a JSON object. */
export type CallResult<M extends string> = M extends ClientRequestMethod ? CompleteResultOf<M> : JsonObject;

/** The params of a notification the test client received, typed by its method where the spec defines it. */
export type NotificationParams<M extends string> = M extends keyof ServerNotificationMap
  ? ServerNotificationMap[M]
  : JsonObject | undefined;

/** The text of resource contents `index` of a `resources/read` result (failing the test when it has none). */
export function resourceText(result: { contents: ReadonlyArray<{ uri: string }> }, index = 0): string {
  const contents = result.contents[index] as { text?: unknown } | undefined;
  if (typeof contents?.text !== 'string') throw new Error(`no text contents ${index} in ${JSON.stringify(result)}`);
  return contents.text;
}

/** The text of message `index` of a `prompts/get` result (failing the test when it is not a text block). */
export function promptText(result: { messages: ReadonlyArray<{ content: { type: string } }> }, index = 0): string {
  const content = result.messages[index]?.content as { type?: string; text?: unknown } | undefined;
  if (content?.type !== 'text' || typeof content.text !== 'string')
    throw new Error(`no text message ${index} in ${JSON.stringify(result)}`);
  return content.text;
}

/** The text of content block `index` of a result (failing the test when it is not a text block). */
export function text(result: { content?: ReadonlyArray<{ type: string }> }, index = 0): string {
  const block = result.content?.[index] as { type?: string; text?: unknown } | undefined;
  if (block?.type !== 'text' || typeof block.text !== 'string') throw new Error(`no text block ${index} in ${JSON.stringify(result)}`);
  return block.text;
}

/** Options of {@link connectEverything}. */
export interface ConnectOptions {
  /** Client capabilities (default: none). */
  capabilities?: Record<string, unknown>;
  answers?: Answers;
  /** Legacy revision to initialize with (default 2025-11-25). */
  protocolVersion?: string;
  server?: McpServer;
  serverOptions?: ServerOptions;
}

/** Options of one call. */
export interface CallOptions {
  /** 2026-07-28: the request's log level. */
  logLevel?: string;
  /** Receives progress notifications (the request carries a progress token). */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  /** 2026-07-28: answer input-required results by retrying (default true). */
  followInputs?: boolean;
}

const SAMPLING = 'sampling/createMessage';
const ELICITATION = 'elicitation/create';
const ROOTS = 'roots/list';

/** Connects a client of `era` to a (new, unless given) everything server. */
export async function connectEverything(era: Era, options: ConnectOptions = {}) {
  const server = options.server ?? createEverythingServer(options.serverOptions);
  const capabilities = options.capabilities ?? {};
  const answers = options.answers ?? {};
  const [clientEnd, serverEnd] = createLinkedPair();
  const peer = new Peer({ onInternalError: () => {} });
  const notifications: Array<{ method: string; params: unknown }> = [];
  const inputRounds: Array<NonNullable<InputRequiredResult['inputRequests']>> = [];
  for (const method of [
    'notifications/message',
    'notifications/resources/updated',
    'notifications/resources/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/subscriptions/acknowledged',
  ]) {
    peer.setNotificationHandler(method, (params: unknown) => void notifications.push({ method, params }));
  }
  /** The test client's answer to one input request (the server's params, passed on as the spec types them). */
  const answer = (method: string, params: unknown): JsonObject => {
    const given =
      method === SAMPLING ? answers.sampling : method === ELICITATION ? answers.elicitation : method === ROOTS ? answers.roots : undefined;
    if (!given) throw new Error(`test client has no answer for ${method}`);
    return (given as (params: unknown) => JsonObject)(params ?? {});
  };
  for (const method of [SAMPLING, ELICITATION, ROOTS]) peer.setRequestHandler(method, (params: unknown) => answer(method, params));
  await server.connect(serverEnd);
  await peer.connect(clientEnd);

  const meta = (logLevel?: string) => ({
    [MetaKey.protocolVersion]: '2026-07-28',
    [MetaKey.clientCapabilities]: capabilities,
    [MetaKey.clientInfo]: { name: 'everything-test', version: '1.0.0' },
    ...(logLevel === undefined ? {} : { [MetaKey.logLevel]: logLevel }),
  });

  /** One request; in 2026-07-28 input-required results are answered and retried until complete. */
  async function call<M extends string>(method: M, params: JsonObject = {}, callOptions: CallOptions = {}): Promise<CallResult<M>> {
    const requestOptions = { onprogress: callOptions.onprogress, signal: callOptions.signal };
    if (era === 'legacy') return (await peer.request(method, params, requestOptions)) as CallResult<M>;
    let retry: JsonObject = {};
    for (let round = 0; round < 10; round++) {
      const result = (await peer.request(
        method,
        { ...params, ...retry, _meta: meta(callOptions.logLevel) },
        requestOptions,
      )) as Partial<InputRequiredResult>;
      if (result.resultType !== 'input_required' || callOptions.followInputs === false) return result as CallResult<M>;
      inputRounds.push(result.inputRequests ?? {});
      const inputResponses: JsonObject = {};
      for (const [key, request] of Object.entries(result.inputRequests ?? {})) inputResponses[key] = answer(request.method, request.params);
      retry = { inputResponses, requestState: result.requestState };
    }
    throw new Error('more than 10 input-required rounds');
  }

  if (era === 'legacy') {
    await peer.request('initialize', {
      protocolVersion: options.protocolVersion ?? '2025-11-25',
      capabilities,
      clientInfo: { name: 'everything-test', version: '1.0.0' },
    });
    await peer.notify('notifications/initialized');
  }

  return {
    era,
    server,
    peer,
    notifications,
    /** The `inputRequests` of every input-required round seen (2026-07-28). */
    inputRounds,
    call,
    /** Calls a tool. */
    tool: (name: string, args: JsonObject = {}, callOptions?: CallOptions): Promise<ToolOutcome> =>
      call('tools/call', { name, arguments: args }, callOptions) as Promise<ToolOutcome>,
    /** Raw 2026-07-28 request: `_meta` added, no input handling. */
    modern: <M extends string>(method: M, params: JsonObject = {}, extraMeta: JsonObject = {}): Promise<RequestHandlerResult<M>> =>
      peer.request(method, { ...params, _meta: { ...meta(), ...extraMeta } }) as Promise<RequestHandlerResult<M>>,
    /** Notifications of `method` received so far. */
    received: <M extends string>(method: M): Array<NotificationParams<M>> =>
      notifications.filter((n) => n.method === method).map((n) => n.params as NotificationParams<M>),
    /** Resolves once `count` notifications of `method` have arrived, re-checking after every turn of the event loop. */
    async until(method: string, count = 1): Promise<void> {
      for (let turns = 0; notifications.filter((n) => n.method === method).length < count; turns++) {
        if (turns > 10_000) throw new Error(`${count} × ${method} did not arrive`);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    /** A round trip: everything the server sent before answering it has arrived when this resolves. */
    settle: async (): Promise<void> => {
      await peer.request('ping', undefined);
    },
    close: () => peer.close(),
  };
}

/** What {@link connectEverything} resolves with. */
export type EverythingClient = Awaited<ReturnType<typeof connectEverything>>;

/** A client capability set with everything a client can declare. */
export const ALL_CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } };

/** Answers that accept every request with canned data. */
export const CANNED_ANSWERS: Answers = {
  sampling: (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `echo: ${firstText(params.messages[0]?.content)}` },
    model: 'test-model',
    stopReason: 'endTurn',
  }),
  elicitation: (params) => {
    if (params.mode === 'url') return { action: 'accept' };
    const properties = params.requestedSchema.properties;
    const content: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
      const type = properties[name]?.type;
      content[name] = type === 'boolean' ? true : type === 'number' || type === 'integer' ? 7 : type === 'array' ? [] : `${name}-value`;
    }
    return { action: 'accept', content };
  },
  roots: () => ({ roots: [{ uri: 'file:///workspace', name: 'workspace' }, { uri: 'file:///tmp' }] }),
};

/** The text of a sampling message's content (one block, or the first of several). */
function firstText(content: unknown): string {
  const block = (Array.isArray(content) ? content[0] : content) as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : '';
}
