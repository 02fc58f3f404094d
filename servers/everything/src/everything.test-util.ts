/**
 * An in-memory client for the everything server that speaks either era through one interface, so each test
 * can run in both: legacy opens a session with `initialize` and answers the server's requests; modern puts
 * the 2026-07-28 `_meta` on every request and answers input-required results by retrying, as a client would.
 */
import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import { MetaKey } from '@wiremcp/protocol';
import type { McpServer, ServerOptions } from '@wiremcp/server';
import { createEverythingServer } from './everything-server.js';

/** The two eras a test runs in. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

type Answer = (params: Record<string, any>) => Record<string, unknown>;

/** How the test client answers the server (legacy requests and modern input requests alike). */
export interface Answers {
  sampling?: Answer;
  elicitation?: Answer;
  roots?: Answer;
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
  const notifications: Array<{ method: string; params: any }> = [];
  const inputRounds: Array<Record<string, { method: string; params: any }>> = [];
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
  const answerer = (method: string): Answer | undefined =>
    method === SAMPLING ? answers.sampling : method === ELICITATION ? answers.elicitation : method === ROOTS ? answers.roots : undefined;
  for (const method of [SAMPLING, ELICITATION, ROOTS]) {
    peer.setRequestHandler(method, (params: unknown) => {
      const answer = answerer(method);
      if (!answer) throw new Error(`test client has no answer for ${method}`);
      return answer(params as Record<string, any>);
    });
  }
  await server.connect(serverEnd);
  await peer.connect(clientEnd);

  const meta = (logLevel?: string) => ({
    [MetaKey.protocolVersion]: '2026-07-28',
    [MetaKey.clientCapabilities]: capabilities,
    [MetaKey.clientInfo]: { name: 'everything-test', version: '1.0.0' },
    ...(logLevel === undefined ? {} : { [MetaKey.logLevel]: logLevel }),
  });

  /** One request; in 2026-07-28 input-required results are answered and retried until complete. */
  async function call(method: string, params: Record<string, unknown> = {}, callOptions: CallOptions = {}): Promise<Record<string, any>> {
    const requestOptions = { onprogress: callOptions.onprogress, signal: callOptions.signal };
    if (era === 'legacy') return (await peer.request(method, params, requestOptions)) as Record<string, any>;
    let retry: Record<string, unknown> = {};
    for (let round = 0; round < 10; round++) {
      const result = (await peer.request(method, { ...params, ...retry, _meta: meta(callOptions.logLevel) }, requestOptions)) as Record<
        string,
        any
      >;
      if (result.resultType !== 'input_required' || callOptions.followInputs === false) return result;
      inputRounds.push(result.inputRequests ?? {});
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries<{ method: string; params: any }>(result.inputRequests ?? {})) {
        const answer = answerer(request.method);
        if (!answer) throw new Error(`test client has no answer for ${request.method}`);
        inputResponses[key] = answer(request.params);
      }
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
    tool: (name: string, args: Record<string, unknown> = {}, callOptions?: CallOptions) =>
      call('tools/call', { name, arguments: args }, callOptions),
    /** Raw 2026-07-28 request: `_meta` added, no input handling. */
    modern: (method: string, params: Record<string, unknown> = {}, extraMeta: Record<string, unknown> = {}) =>
      peer.request(method, { ...params, _meta: { ...meta(), ...extraMeta } }) as Promise<Record<string, any>>,
    /** Notifications of `method` received so far. */
    received: (method: string) => notifications.filter((n) => n.method === method).map((n) => n.params),
    settle: (ms = 10) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
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
    content: { type: 'text', text: `echo: ${params.messages?.[0]?.content?.text ?? ''}` },
    model: 'test-model',
    stopReason: 'endTurn',
  }),
  elicitation: (params) => {
    if (params.mode === 'url') return { action: 'accept' };
    const properties = Object.keys(params.requestedSchema?.properties ?? {});
    const content: Record<string, unknown> = {};
    for (const name of properties) {
      const type = params.requestedSchema.properties[name].type;
      content[name] = type === 'boolean' ? true : type === 'number' || type === 'integer' ? 7 : type === 'array' ? [] : `${name}-value`;
    }
    return { action: 'accept', content };
  },
  roots: () => ({ roots: [{ uri: 'file:///workspace', name: 'workspace' }, { uri: 'file:///tmp' }] }),
};
