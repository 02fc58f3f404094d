/**
 * A raw session over the deprecated HTTP+SSE transport of 2024-11-05: a GET opens an event stream whose first
 * event, `endpoint`, names the URI to POST messages to; every server message (responses included) arrives
 * as a `message` event on that stream.
 */
import type { TransportId } from '../scenario/scenario-types.js';
import { endReads } from './end-reads.js';
import { EndpointSession } from './endpoint-session.js';
import { exchange, exchangeRequest, withQuery, type ExchangeResponse } from './http-exchange.js';
import { fetchError } from './http-session.js';
import { SseParser } from './sse-parser.js';
import type { ExchangeSpec, RawSession, SendOptions, SendOutcome } from './session.js';

/** An HTTP+SSE server under test. */
export class SseSession extends EndpointSession implements RawSession {
  readonly transport: TransportId = 'http-sse';
  readonly #url: string;
  readonly #controller = new AbortController();
  #endpoint: Promise<string> | undefined;
  #reading: Promise<void> | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(url: string, note = '') {
    super(note);
    this.#url = url;
  }

  /** Opens the stream (once) and resolves with the POST endpoint announced by the server. */
  #connect(): Promise<string> {
    this.#endpoint ??= new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no endpoint event within 5 s')), 5000);
      const work = fetch(this.#url, { headers: { accept: 'text/event-stream' }, signal: this.#controller.signal }).then(
        async (response) => {
          if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
            throw new Error(`GET ${this.#url} answered ${response.status} ${response.headers.get('content-type') ?? ''}`);
          }
          const parser = new SseParser();
          const reader = response.body!.getReader();
          this.#reader = reader;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            for (const event of parser.push(value)) {
              if (event.event === 'endpoint') {
                clearTimeout(timer);
                resolve(new URL(event.data.trim(), this.#url).toString());
              } else if (event.event === 'message') {
                this.#message(event.data);
              }
            }
          }
        },
      );
      this.#reading = work.catch((error: Error) => {
        clearTimeout(timer);
        reject(new Error(fetchError(error)));
        if (!this.#controller.signal.aborted)
          this.log.push({ kind: 'violation', message: `SSE stream: ${error.message}`, at: this.log.now() });
      });
    });
    return this.#endpoint;
  }

  #message(data: string): void {
    try {
      this.log.push({ kind: 'message', message: JSON.parse(data), at: this.log.now(), http: { status: 200, via: 'get' } });
    } catch {
      this.log.push({
        kind: 'violation',
        message: `SSE message data is not JSON: ${JSON.stringify(data.slice(0, 200))}`,
        at: this.log.now(),
      });
    }
  }

  send(message: unknown, options?: SendOptions): Promise<SendOutcome> {
    return this.sendPayload(new TextEncoder().encode(JSON.stringify(message)), options);
  }

  async sendPayload(payload: Uint8Array, options: SendOptions = {}): Promise<SendOutcome> {
    let endpoint: string;
    try {
      endpoint = await this.#connect();
    } catch (error) {
      this.log.push({ kind: 'violation', message: `cannot open the SSE stream: ${(error as Error).message}`, at: this.log.now() });
      return {};
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body: Buffer.from(payload), signal: this.#controller.signal });
      const body = await response.text();
      // Answers arrive on the stream; a POST body is informational (servers say "Accepted") — except a refusal
      // whose body is a JSON-RPC error (a message the server could not accept has no place on the stream).
      if (!response.ok) {
        const refusal = jsonRpcError(response.headers.get('content-type'), body);
        if (refusal !== undefined)
          this.log.push({ kind: 'message', message: refusal, at: this.log.now(), http: { status: response.status, via: 'json' } });
        else this.log.push({ kind: 'http', status: response.status, body: body.slice(0, 500), at: this.log.now() });
      }
      return { status: response.status };
    } catch (error) {
      if (!this.#controller.signal.aborted)
        this.log.push({ kind: 'violation', message: `POST ${endpoint} failed: ${fetchError(error)}`, at: this.log.now() });
      return {};
    }
  }

  /**
   * One request outside the message flow (an `http` step): a GET goes to the SSE endpoint (a stream of its own,
   * `Accept: text/event-stream`); any other method to the message endpoint the session's stream announced (its
   * session id in the query), `Content-Type: application/json`. `query` edits that URL's parameters.
   */
  async exchange(spec: ExchangeSpec, timeoutMs: number): Promise<ExchangeResponse> {
    if (spec.method === 'GET') {
      return exchange(withQuery(this.#url, spec.query), exchangeRequest(spec, { accept: 'text/event-stream' }), timeoutMs);
    }
    const endpoint = await this.#connect();
    return exchange(withQuery(endpoint, spec.query), exchangeRequest(spec, { 'content-type': 'application/json' }), timeoutMs);
  }

  sendRaw(): Promise<void> {
    return Promise.reject(new Error('sendRaw needs a stdio transport'));
  }

  cancelByTransport(): boolean {
    return false;
  }

  protected override async closeOnce(): Promise<void> {
    await endReads({
      readers: this.#reader === undefined ? [] : [this.#reader],
      controllers: [this.#controller],
      loops: this.#reading === undefined ? [] : [this.#reading],
    });
  }
}

/** The JSON-RPC error response in a refused POST's body (`application/json`), or `undefined`. */
function jsonRpcError(contentType: string | null, body: string): unknown {
  if (!contentType?.toLowerCase().startsWith('application/json')) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    const isError =
      typeof parsed === 'object' && parsed !== null && (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0' && 'error' in parsed;
    return isError ? parsed : undefined;
  } catch {
    return undefined;
  }
}
