/**
 * A raw Streamable HTTP session (2025-03-26 and later, and the 2026-07-28 shape), written against the spec
 * with Node's `fetch`:
 *
 * - every message is one POST with `Content-Type: application/json` and
 *   `Accept: application/json, text/event-stream`; the answer is a JSON body, an SSE stream (notifications and
 *   requests, then the response), or 202 for notifications and responses;
 * - legacy: `Mcp-Session-Id` from the initialize response is echoed on every later request, and
 *   `MCP-Protocol-Version` carries the negotiated version after initialize (2025-06-18+); a standalone GET
 *   stream is opened for server-initiated messages (405 is fine); DELETE ends the session;
 * - modern (2026-07-28): `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` mirror the body; cancelling a
 *   request closes its response stream.
 *
 * Every body must be what its Content-Type says: a JSON body that does not parse, or an SSE event whose data is
 * not JSON, is a violation.
 */
import { encodeHeaderValue, mirroredName } from '@wiremcp/protocol';
import type { TransportId } from '../scenario/scenario-types.js';
import { END_READS_MS, endReads } from './end-reads.js';
import { EndpointSession } from './endpoint-session.js';
import { exchange, exchangeRequest, withQuery, type ExchangeResponse } from './http-exchange.js';
import { SseParser } from './sse-parser.js';
import type { ExchangeSpec, HttpArrival, RawSession, SendOptions, SendOutcome } from './session.js';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fetch error with its cause (`fetch failed` alone does not say "connection refused"). */
export function fetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return `${(error as Error).message}${detail ? ` (${detail})` : ''}`;
}

/** A Streamable HTTP endpoint under test. */
export class HttpSession extends EndpointSession implements RawSession {
  readonly transport: TransportId;
  readonly #url: string;
  #sessionId: string | undefined;
  #negotiated: string | undefined;
  readonly #initializeIds = new Set<unknown>();
  readonly #inflight = new Map<unknown, AbortController>();
  readonly #all = new Set<AbortController>();
  readonly #reading = new Set<Promise<void>>();
  readonly #readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  #getStream = false;

  constructor(url: string, transport: TransportId, note = '') {
    super(note);
    this.#url = url;
    this.transport = transport;
  }

  #headersFor(message: unknown): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (!isObject(message) || typeof message['method'] !== 'string') {
      if (this.#negotiated !== undefined) headers['mcp-protocol-version'] = this.#negotiated;
      return headers;
    }
    const method = message['method'];
    const params = isObject(message['params']) ? message['params'] : undefined;
    const meta = params && isObject(params['_meta']) ? params['_meta'] : undefined;
    const modernVersion = meta?.[VERSION_KEY];
    if (typeof modernVersion === 'string') {
      headers['mcp-protocol-version'] = modernVersion;
      headers['mcp-method'] = method;
      const name = mirroredName(method, params);
      if (name !== undefined) headers['mcp-name'] = encodeHeaderValue(name);
    } else if (method !== 'initialize' && this.#negotiated !== undefined) {
      headers['mcp-protocol-version'] = this.#negotiated;
    }
    return headers;
  }

  send(message: unknown, options: SendOptions = {}): Promise<SendOutcome> {
    if (isObject(message) && message['method'] === 'initialize') this.#initializeIds.add(message['id']);
    const id = isObject(message) && 'method' in message ? message['id'] : undefined;
    return this.#post(JSON.stringify(message), this.#headersFor(message), options, id);
  }

  sendPayload(payload: Uint8Array, options: SendOptions = {}): Promise<SendOutcome> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    return this.#post(payload, this.#headersFor(parsed), options, undefined);
  }

  async #post(body: string | Uint8Array, base: Record<string, string>, options: SendOptions, id: unknown): Promise<SendOutcome> {
    const headers = { ...base };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const controller = new AbortController();
    this.#all.add(controller);
    if (id !== undefined) this.#inflight.set(id, controller);
    let response: Response;
    try {
      response = await fetch(this.#url, {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : Buffer.from(body),
        signal: controller.signal,
      });
    } catch (error) {
      this.#all.delete(controller);
      if (!controller.signal.aborted)
        this.log.push({ kind: 'violation', message: `POST ${this.#url} failed: ${fetchError(error)}`, at: this.log.now() });
      return {};
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId !== null && this.#sessionId === undefined) this.#sessionId = sessionId;
    const reading = this.#consume(response, { status: response.status, via: 'json' }, controller).then(() => {
      // The answer to a request travels on its own POST's response: once that is over without it, it cannot come.
      if (id !== undefined && this.#inflight.get(id) === controller && !controller.signal.aborted) {
        this.#inflight.delete(id);
        this.log.push({ kind: 'ended', requestId: id, status: response.status, at: this.log.now() });
      }
    });
    this.#track(reading);
    return { status: response.status };
  }

  #track(work: Promise<void>): void {
    this.#reading.add(work);
    void work.finally(() => this.#reading.delete(work));
  }

  async #consume(response: Response, arrival: HttpArrival, controller: AbortController): Promise<void> {
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    try {
      if (type.startsWith('text/event-stream')) {
        await this.#readStream(response, { ...arrival, via: arrival.via === 'get' ? 'get' : 'sse' });
        return;
      }
      const text = await response.text();
      if (type.startsWith('application/json') && text.trim() !== '') {
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          this.log.push({
            kind: 'violation',
            message: `HTTP ${response.status} body says application/json but is not JSON: ${JSON.stringify(text.slice(0, 200))}`,
            at: this.log.now(),
          });
          return;
        }
        this.#deliver(message, arrival);
        return;
      }
      this.log.push({ kind: 'http', status: response.status, body: text.slice(0, 500), at: this.log.now() });
    } catch (error) {
      if (!controller.signal.aborted)
        this.log.push({ kind: 'violation', message: `reading the HTTP response failed: ${(error as Error).message}`, at: this.log.now() });
    } finally {
      this.#all.delete(controller);
    }
  }

  async #readStream(response: Response, arrival: HttpArrival): Promise<void> {
    const parser = new SseParser();
    const reader = response.body!.getReader();
    // Kept so that close() can cancel it: aborting the request does not always settle a pending read (an SSE
    // stream the server keeps open), and a read that never settles holds no handle, so Node would just exit.
    this.#readers.add(reader);
    try {
      await this.#readEvents(reader, parser, arrival);
    } finally {
      this.#readers.delete(reader);
    }
  }

  async #readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, parser: SseParser, arrival: HttpArrival): Promise<void> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(value)) {
        // Priming events (an id and empty data, 2025-11-25) and other event types carry no message.
        if (event.event !== 'message' || event.data === '') continue;
        let message: unknown;
        try {
          message = JSON.parse(event.data);
        } catch {
          this.log.push({
            kind: 'violation',
            message: `SSE event data is not JSON: ${JSON.stringify(event.data.slice(0, 200))}`,
            at: this.log.now(),
          });
          continue;
        }
        this.#deliver(message, arrival);
      }
    }
  }

  #deliver(message: unknown, arrival: HttpArrival): void {
    if (isObject(message) && 'id' in message && !('method' in message)) {
      this.#inflight.delete(message['id']);
      if (this.#initializeIds.has(message['id']) && isObject(message['result'])) {
        const version = message['result']['protocolVersion'];
        // The header exists from 2025-06-18 on; sending it to older servers is harmless and spec-neutral.
        if (typeof version === 'string' && version >= '2025-06-18') this.#negotiated = version;
        this.#openGetStream();
      }
    }
    this.log.push({ kind: 'message', message, at: this.log.now(), http: arrival });
  }

  /** Legacy sessions: the standalone stream for server-initiated messages (optional for servers: 405 is fine). */
  #openGetStream(): void {
    if (this.#getStream || this.closing) return;
    this.#getStream = true;
    const controller = new AbortController();
    this.#all.add(controller);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#negotiated !== undefined) headers['mcp-protocol-version'] = this.#negotiated;
    const work = fetch(this.#url, { method: 'GET', headers, signal: controller.signal }).then(
      async (response) => {
        if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          await this.#readStream(response, { status: response.status, via: 'get' }).catch(() => {});
        } else {
          await response.body?.cancel().catch(() => {});
        }
        this.#all.delete(controller);
      },
      () => {
        this.#all.delete(controller);
      },
    );
    this.#track(work);
  }

  /**
   * One request outside the message flow (an `http` step): the session's headers for `method` (POST: the
   * content type and accept of a message; GET: accept SSE; all: the session id and negotiated version) under
   * `headers`, where `null` removes one.
   */
  exchange(spec: ExchangeSpec, timeoutMs: number): Promise<ExchangeResponse> {
    const { method, body } = spec;
    let message: unknown;
    try {
      message = typeof body === 'string' ? JSON.parse(body) : undefined;
    } catch {
      message = undefined;
    }
    // A POST gets exactly what a message would (the modern mirrored headers included); GET and DELETE the session's.
    const merged: Record<string, string> =
      method === 'POST' ? this.#headersFor(message) : method === 'GET' ? { accept: 'text/event-stream' } : {};
    if (this.#sessionId !== undefined) merged['mcp-session-id'] = this.#sessionId;
    if (this.#negotiated !== undefined) merged['mcp-protocol-version'] = this.#negotiated;
    return exchange(withQuery(this.#url, spec.query), exchangeRequest(spec, merged), timeoutMs);
  }

  sendRaw(): Promise<void> {
    return Promise.reject(new Error('sendRaw needs a stdio transport'));
  }

  cancelByTransport(id: unknown): boolean {
    const controller = this.#inflight.get(id);
    if (controller === undefined) return false;
    controller.abort();
    this.#inflight.delete(id);
    return true;
  }

  protected override async closeOnce(): Promise<void> {
    // Readers cancelled and requests aborted at once; the session's DELETE goes out while the read loops settle.
    const ended = endReads({ readers: this.#readers, controllers: this.#all, loops: this.#reading });
    if (this.#sessionId !== undefined) {
      // SHOULD end the session; a 405 answer is allowed.
      await fetch(this.#url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': this.#sessionId },
        signal: AbortSignal.timeout(END_READS_MS),
      })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
    await ended;
  }
}
