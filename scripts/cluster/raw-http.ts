/**
 * A deliberately plain MCP-over-HTTP client for the cluster tests, the fault load and the cluster benchmark: every
 * request is one fetch whose status, body and `X-Upstream` (the instance nginx chose) the caller can see, and SSE
 * bodies are read event by event.
 */

/** One SSE event (or a JSON body, as one event without id). */
export interface RawEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** A response being read: status, headers, and its events as they arrive. */
export interface RawResponse {
  readonly status: number;
  readonly upstream: string;
  readonly headers: Headers;
  /** The next event; `undefined` once the body ended (or broke: see {@link broken}). */
  next(): Promise<RawEvent | undefined>;
  /** True once reading the body failed (the connection broke) rather than ended. */
  readonly broken: boolean;
  /** Every remaining event. */
  rest(): Promise<RawEvent[]>;
  cancel(): Promise<void>;
}

/** Messages of events, parsed (priming events, with empty data, skipped). */
export function messages(events: readonly RawEvent[]): Record<string, unknown>[] {
  return events.filter((event) => event.data !== '').map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

/**
 * Reads events until one whose message satisfies `wanted`, and resolves with that message; every event read is
 * added to `into`. Rejects when the stream ends first, quoting what it saw.
 */
export async function readUntil(
  response: RawResponse,
  into: RawEvent[],
  wanted: (message: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let event = await response.next(); event !== undefined; event = await response.next()) {
    into.push(event);
    if (event.data !== '') {
      const message = JSON.parse(event.data) as Record<string, unknown>;
      if (wanted(message)) return message;
    }
  }
  throw new Error(`the stream ended first; saw ${into.map((e) => e.data).join(' | ')}`);
}

function reader(response: Response): Pick<RawResponse, 'next' | 'rest' | 'cancel' | 'broken'> {
  const json = (response.headers.get('content-type') ?? '').includes('application/json');
  const body = response.body;
  if (body === null || json) {
    let text: Promise<string> | undefined = response.text();
    let broken = false;
    return {
      get broken() {
        return broken;
      },
      async next() {
        if (text === undefined) return undefined;
        const data = await text.catch(() => {
          broken = true;
          return '';
        });
        text = undefined;
        return data === '' ? undefined : { id: undefined, data };
      },
      async rest() {
        const event = await this.next();
        return event === undefined ? [] : [event];
      },
      async cancel() {},
    };
  }
  const stream = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  let broken = false;
  const next = async (): Promise<RawEvent | undefined> => {
    for (;;) {
      const end = buffer.search(/\r?\n\r?\n/);
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        let id: string | undefined;
        const data: string[] = [];
        let fields = 0;
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const name = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          fields += 1;
          if (name === 'id') id = value;
          if (name === 'data') data.push(value);
        }
        if (fields > 0) return { id, data: data.join('\n') };
        continue;
      }
      if (ended) return undefined;
      try {
        const chunk = await stream.read();
        if (chunk.done) ended = true;
        else buffer += chunk.value;
      } catch {
        ended = true;
        broken = true;
      }
    }
  };
  return {
    get broken() {
      return broken;
    },
    next,
    async rest() {
      const events: RawEvent[] = [];
      for (let event = await next(); event !== undefined; event = await next()) events.push(event);
      return events;
    },
    async cancel() {
      ended = true;
      await stream.cancel().catch(() => {});
    },
  };
}

/** Headers of a request in a session. */
export function sessionHeaders(sessionId: string, version: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': version, ...extra };
}

/** Sends one HTTP request to the endpoint. */
export async function send(
  url: string,
  method: 'POST' | 'GET' | 'DELETE',
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<RawResponse> {
  const response = await fetch(url, {
    method,
    ...(signal === undefined ? {} : { signal }),
    headers: {
      accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const read = reader(response);
  return {
    status: response.status,
    upstream: response.headers.get('x-upstream') ?? '',
    headers: response.headers,
    get broken() {
      return read.broken;
    },
    next: read.next,
    rest: read.rest,
    cancel: read.cancel,
  };
}

/** Opens a legacy session (initialize + initialized); resolves with its id and the upstream of each of the two POSTs. */
export async function openSession(
  url: string,
  version: string,
  capabilities: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<{ sessionId: string; upstreams: string[] }> {
  const params = { protocolVersion: version, capabilities, clientInfo: { name: 'cluster-test', version: '1.0.0' } };
  const init = await send(url, 'POST', { jsonrpc: '2.0', id: 0, method: 'initialize', params }, {}, signal);
  const sessionId = init.headers.get('mcp-session-id');
  const body = await init.rest();
  if (init.status !== 200 || sessionId === null) throw new Error(`initialize failed: ${init.status} ${body.map((e) => e.data).join()}`);
  const initialized = await send(
    url,
    'POST',
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    sessionHeaders(sessionId, version),
    signal,
  );
  await initialized.rest();
  if (initialized.status !== 202) throw new Error(`notifications/initialized got ${initialized.status}`);
  return { sessionId, upstreams: [init.upstream, initialized.upstream] };
}
