/**
 * The load the fault harness and the fault benchmark run against the cluster while faults are injected, as three
 * kinds of client, each a loop of one request at a time through the balancer until told to stop:
 * - `legacy` (2025-11-25 sessions): a streamed `tools/call` (progress events), its stream resumed with GET and
 *   `Last-Event-ID` whenever it ends or breaks before the answer, the session sometimes deleted and a new one opened;
 * - `modern` (2026-07-28, no session): a plain `tools/call`, and an input-required round whose second half lands on
 *   whichever process the balancer picks (its `requestState` must verify there);
 * - `sse` (2024-11-05 HTTP+SSE): messages POSTed to any process, answers read on the session's stream.
 * Each request's outcome is recorded, and what no client may ever see is recorded as a violation: an event id
 * heard twice, progress out of order or with a gap, a 503 without `Retry-After`, a request past its deadline, a
 * legacy stream that broke and could not be resumed, an answer that is neither a result nor an error.
 */
import { messages, openSession, send, sessionHeaders, type RawEvent, type RawResponse } from './raw-http.js';

/** How one request ended. */
export type Outcome = 'result' | 'rpc-error' | 'refused' | 'broken' | 'hung';

/** One request of the load. */
export interface LoadRecord {
  readonly kind: 'legacy' | 'modern' | 'sse';
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: Outcome;
  /** The HTTP status or error that ended it, when not a result. */
  readonly detail: string;
  /** A legacy stream that was resumed at least once. */
  readonly resumed: boolean;
}

/** Options of {@link startLoad}. */
export interface LoadOptions {
  readonly legacy?: number;
  readonly modern?: number;
  readonly sse?: number;
  /** No request may take longer (default 15 s): past it, it is recorded `hung`. */
  readonly deadlineMs?: number;
  /** The `tools/call` of a legacy request: steps of progress over this long (default 3 steps in 300 ms). */
  readonly steps?: number;
  readonly durationMs?: number;
}

/** A running load. */
export interface Load {
  /** Records so far. */
  readonly records: readonly LoadRecord[];
  /** Every violation seen so far (see the module comment). */
  readonly violations: readonly string[];
  /** Sessions whose DELETE was acknowledged (200): none of them may be served again, anywhere. */
  readonly deleted: readonly string[];
  /**
   * The instances (`X-Upstream`) running a legacy request's stream being read now, once it heard its first event (so
   * that a break there is resumable): where a kill hurts most.
   */
  streaming(): string[];
  /** Stops the loops (each finishes its request, bounded by the deadline) and resolves with every record. */
  stop(): Promise<LoadRecord[]>;
}

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
type Message = Record<string, unknown>;

/** Starts the load on `url` (the balancer's MCP endpoint). */
export function startLoad(url: string, options: LoadOptions = {}): Load {
  const deadlineMs = options.deadlineMs ?? 15_000;
  const records: LoadRecord[] = [];
  const violations: string[] = [];
  const deleted: string[] = [];
  const stopping = new AbortController();
  let nextId = 1;
  const active = new Map<number, string>();
  const context: Context = { url, deadlineMs, violations, deleted, active, stopping: stopping.signal, id: () => nextId++, options };
  const loop = async (kind: LoadRecord['kind'], worker: (record: Recorder) => Promise<void>): Promise<void> => {
    // Bounded in count as well as in time.
    for (let n = 0; n < 100_000 && !stopping.signal.aborted; n += 1) {
      const startedAt = Date.now();
      let ended = false;
      const record: Recorder = (outcome, detail = '', resumed = false) => {
        if (ended) return;
        ended = true;
        const endedAt = Date.now();
        if (endedAt - startedAt > deadlineMs && outcome !== 'hung')
          violations.push(`${kind}: a request took ${endedAt - startedAt} ms (${detail})`);
        records.push({ kind, startedAt, endedAt, outcome, detail, resumed });
        if (outcome === 'hung') violations.push(`${kind}: a request never ended (${detail})`);
      };
      try {
        await worker(record);
      } catch (error) {
        record(isTimeout(error) ? 'hung' : 'broken', String(error));
      }
      // A client that was refused waits a moment (what Retry-After asks), so a fault does not become a busy loop.
      if (records.at(-1)?.outcome !== 'result') await pause(100);
    }
  };
  const workers = [
    ...Array.from({ length: options.legacy ?? 2 }, () => loop('legacy', legacyWorker(context))),
    ...Array.from({ length: options.modern ?? 2 }, () => loop('modern', modernWorker(context))),
    ...Array.from({ length: options.sse ?? 1 }, () => loop('sse', sseWorker(context))),
  ];
  return {
    records,
    violations,
    deleted,
    streaming: () => [...active.values()],
    async stop() {
      stopping.abort();
      await Promise.all(workers);
      await Promise.all(context.cleanups?.map((cleanup) => cleanup()) ?? []);
      return records;
    },
  };
}

type Recorder = (outcome: Outcome, detail?: string, resumed?: boolean) => void;

interface Context {
  readonly url: string;
  readonly deadlineMs: number;
  readonly violations: string[];
  readonly deleted: string[];
  readonly active: Map<number, string>;
  readonly stopping: AbortSignal;
  readonly id: () => number;
  readonly options: LoadOptions;
  cleanups?: (() => Promise<void>)[];
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isTimeout = (error: unknown): boolean => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** A non-2xx answer: `refused`, and a 503 must say when to come back. */
function refused(context: Context, what: string, response: RawResponse, record: Recorder): void {
  if (response.status === 503 && response.headers.get('retry-after') === null) context.violations.push(`${what}: 503 without Retry-After`);
  record('refused', `${what}: HTTP ${response.status}`);
}

/** A legacy client: one session, streamed calls resumed on any process, the session deleted now and then. */
function legacyWorker(context: Context): (record: Recorder) => Promise<void> {
  let sessionId: string | undefined;
  let calls = 0;
  return async (record) => {
    const signal = AbortSignal.timeout(context.deadlineMs);
    if (sessionId === undefined) {
      sessionId = await openSession(context.url, LEGACY, {}, signal).then(
        (opened) => opened.sessionId,
        (error: unknown) => {
          if (isTimeout(error)) throw error;
          return undefined;
        },
      );
      if (sessionId === undefined) return record('refused', 'initialize refused');
    }
    calls += 1;
    if (calls % 5 === 0) {
      const response = await send(context.url, 'DELETE', undefined, sessionHeaders(sessionId, LEGACY), signal);
      await response.rest();
      if (response.status === 200 || response.status === 404) {
        if (response.status === 200) context.deleted.push(sessionId);
        sessionId = undefined;
        return record('result', 'DELETE');
      }
      return refused(context, 'DELETE', response, record);
    }
    const id = context.id();
    const steps = context.options.steps ?? 3;
    const params = {
      name: 'test_long_running_operation',
      arguments: { durationMs: context.options.durationMs ?? 300, steps },
      _meta: { progressToken: `p${id}` },
    };
    const headers = sessionHeaders(sessionId, LEGACY);
    let response = await send(context.url, 'POST', { jsonrpc: '2.0', id, method: 'tools/call', params }, headers, signal);
    if (response.status === 404) sessionId = undefined;
    if (response.status !== 200) return refused(context, 'tools/call', response, record);
    const seen = new Set<string>();
    const progress: number[] = [];
    let lastEventId: string | undefined;
    let resumed = false;
    const upstream = response.upstream;
    try {
      return await readAnswer();
    } finally {
      context.active.delete(id);
    }
    async function readAnswer(): Promise<void> {
      for (let attempt = 0; ; attempt += 1) {
        for (let event = await response.next(); event !== undefined; event = await response.next()) {
          if (event.id !== undefined) {
            if (seen.has(event.id)) context.violations.push(`legacy: event ${event.id} heard twice`);
            seen.add(event.id);
            if (lastEventId === undefined && !resumed) context.active.set(id, upstream);
            lastEventId = event.id;
          }
          const message = parse(event);
          if (message?.method === 'notifications/progress') progress.push((message.params as { progress: number }).progress);
          if (message?.id !== id) continue;
          checkProgress(context, progress);
          await response.cancel();
          if ('result' in message) return record('result', '', resumed);
          return record('rpc-error', JSON.stringify(message.error).slice(0, 200), resumed);
        }
        // The stream ended or broke before the answer: resumed from the last event heard, on whichever process.
        if (lastEventId === undefined) return record('broken', 'the stream broke before its first event');
        if (attempt >= 20) return record('broken', `not resumable after ${attempt} attempts`, resumed);
        if (attempt > 0) await pause(Math.min(1000, 50 * 2 ** attempt));
        resumed = true;
        response = await send(context.url, 'GET', undefined, { ...headers, 'last-event-id': lastEventId }, signal);
        if (response.status === 404 || response.status === 400) {
          sessionId = response.status === 404 ? undefined : sessionId;
          return refused(context, 'resumption', response, record);
        }
        if (response.status !== 200) {
          if (response.status === 503 && response.headers.get('retry-after') === null)
            context.violations.push('resumption: 503 without Retry-After');
          await response.cancel();
          response = emptyResponse();
        }
      }
    }
  };
}

function emptyResponse(): RawResponse {
  return {
    status: 0,
    upstream: '',
    headers: new Headers(),
    broken: false,
    next: async () => undefined,
    rest: async () => [],
    cancel: async () => {},
  };
}

/** Progress heard in order, each step once, none skipped. */
function checkProgress(context: Context, progress: readonly number[]): void {
  if (progress.some((value, i) => value !== i + 1)) context.violations.push(`legacy: progress heard as ${progress.join(',')}`);
}

function parse(event: RawEvent): Message | undefined {
  if (event.data === '') return undefined;
  try {
    return JSON.parse(event.data) as Message;
  } catch {
    return undefined;
  }
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

/** A 2026-07-28 client: plain calls, and input-required rounds whose halves land on any two processes. */
function modernWorker(context: Context): (record: Recorder) => Promise<void> {
  let round = 0;
  return async (record) => {
    const signal = AbortSignal.timeout(context.deadlineMs);
    round += 1;
    const name = round % 2 === 0 ? 'test_input_required_result_elicitation' : 'test_simple_text';
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name };
    const call = async (params: Message): Promise<Message | RawResponse> => {
      const body = {
        jsonrpc: '2.0',
        id: context.id(),
        method: 'tools/call',
        params: { name, arguments: {}, _meta: MODERN_META, ...params },
      };
      const response = await send(context.url, 'POST', body, headers, signal);
      if (response.status !== 200) return response;
      const events = await response.rest();
      const answer = messages(events).find((message) => 'result' in message || 'error' in message);
      if (answer === undefined) throw new Error(response.broken ? 'the response broke' : 'the response ended with no answer');
      return answer;
    };
    let answer = await call({});
    if (!('jsonrpc' in answer)) return refused(context, 'tools/call', answer as RawResponse, record);
    const state = (answer.result as { requestState?: string } | undefined)?.requestState;
    if (state !== undefined) {
      answer = await call({ requestState: state, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } });
      if (!('jsonrpc' in answer)) return refused(context, 'input-required round', answer as RawResponse, record);
      if ('result' in answer && !JSON.stringify(answer.result).includes('Hello, Ada!'))
        context.violations.push(`modern: the round ended with ${JSON.stringify(answer.result).slice(0, 200)}`);
    }
    if ('result' in answer) record('result');
    else record('rpc-error', JSON.stringify(answer.error).slice(0, 200));
  };
}

/** A 2024-11-05 HTTP+SSE client: its stream on one process, its messages POSTed to any. */
function sseWorker(context: Context): (record: Recorder) => Promise<void> {
  let session: SseClient | undefined;
  return async (record) => {
    const signal = AbortSignal.timeout(context.deadlineMs);
    if (session === undefined || session.closed) {
      const opened = await openSseClient(context, signal);
      if (typeof opened === 'string') return record('refused', opened);
      session = opened;
    }
    const id = context.id();
    const answer = session.answer(id, signal);
    // Handled here too: when the POST fails, nobody awaits it.
    answer.catch(() => undefined);
    const posted = await session.post(
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } },
      signal,
    );
    if (posted.status !== 202) {
      session.forget(id);
      if (posted.status === 404) await session.close();
      return refused(context, 'POST /messages', posted, record);
    }
    const message = await answer;
    if (message === undefined) return record('broken', 'the session stream ended before the answer');
    if ('result' in message) return record('result');
    return record('rpc-error', JSON.stringify(message.error).slice(0, 200));
  };
}

interface SseClient {
  readonly closed: boolean;
  post(message: Message, signal: AbortSignal): Promise<RawResponse>;
  /** The answer to `id`, or `undefined` when the stream ended first; rejects past `signal`. */
  answer(id: number, signal: AbortSignal): Promise<Message | undefined>;
  forget(id: number): void;
  close(): Promise<void>;
}

/** Opens an HTTP+SSE session (initialize answered on its stream); a string says why it could not. */
async function openSseClient(context: Context, signal: AbortSignal): Promise<SseClient | string> {
  const sseUrl = new URL('/sse', context.url).href;
  const stream = await send(sseUrl, 'GET', undefined, {}, signal);
  if (stream.status !== 200) {
    await stream.rest();
    return `GET /sse: HTTP ${stream.status}`;
  }
  const first = await stream.next();
  if (first === undefined) return 'GET /sse ended before its endpoint event';
  const endpoint = new URL(first.data, context.url).href;
  const waiting = new Map<number, (message: Message | undefined) => void>();
  let closed = false;
  void (async () => {
    for (let event = await stream.next(); event !== undefined; event = await stream.next()) {
      const message = parse(event);
      const id = message?.id;
      if (typeof id === 'number') waiting.get(id)?.(message);
    }
    closed = true;
    for (const resolve of waiting.values()) resolve(undefined);
  })();
  const client: SseClient = {
    get closed() {
      return closed;
    },
    post: async (message, postSignal) => {
      const response = await send(endpoint, 'POST', message, {}, postSignal);
      await response.rest();
      return response;
    },
    answer: (id, answerSignal) =>
      new Promise((resolve, reject) => {
        if (closed) return resolve(undefined);
        // Past the deadline it rejects, unless the answer was given up (forgotten) before.
        const onAbort = (): void => {
          if (waiting.delete(id)) reject(answerSignal.reason);
        };
        answerSignal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, (message) => {
          waiting.delete(id);
          answerSignal.removeEventListener('abort', onAbort);
          resolve(message);
        });
      }),
    forget: (id) => void waiting.delete(id),
    close: async () => {
      closed = true;
      await stream.cancel();
    },
  };
  (context.cleanups ??= []).push(() => client.close());
  const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'fault-load', version: '1' } };
  const answered = client.answer(0, signal);
  answered.catch(() => undefined);
  const posted = await client.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init }, signal);
  if (posted.status !== 202) {
    client.forget(0);
    await client.close();
    return `initialize over HTTP+SSE: HTTP ${posted.status}`;
  }
  if ((await answered) === undefined) return 'the session stream ended before initialize was answered';
  await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, signal);
  return client;
}
