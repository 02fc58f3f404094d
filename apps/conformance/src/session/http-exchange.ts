/**
 * One HTTP request outside the session's own message flow, for scenarios that check the transport itself:
 * any method, any headers (the session's own, removable one by one), any body; the status, headers and body
 * of the response come back for matching. An SSE response is read up to its first message event, or a given number
 * of events (a stream the server keeps open would never end), bounded in time and bytes; a JSON body is parsed.
 * Sent with `node:http` rather than `fetch`: `fetch` drops a `Host` header it is given, and the Host rows of the
 * table are what such a step checks; and `fetch` cannot read a response (a 413) that arrives while the body is
 * still being uploaded, where this stops uploading and reads it, whether or not the server then closes the
 * connection.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { SseParser, type SseEvent } from './sse-parser.js';

/** The largest body an exchange uploads (a bound on what a scenario can ask for). */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/** How much of an SSE answer is read at most. */
const MAX_SSE_BYTES = 1024 * 1024;
const WRITE_CHUNK = 64 * 1024;

/** A request of an `http` step, its headers already merged with the session's defaults. */
export interface ExchangeRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Send the body with chunked transfer encoding (no `Content-Length`). */
  readonly chunked?: boolean;
  /** An SSE answer: read this many events (any type; 0: none, the status and headers are the answer) instead of stopping at the first message event. */
  readonly sseEvents?: number;
}

/**
 * What came back: status, headers (lower-case names) and the body — parsed JSON when it is JSON, else its text; an
 * SSE answer's body is its first message event's data (parsed), and `events` the events read.
 */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly events?: readonly SseEvent[];
}

/** Reads SSE events until the first message (or `count` events), the end, `MAX_SSE_BYTES` or the deadline; then cancels the rest. */
async function readSse(
  response: Response,
  deadline: AbortSignal,
  count: number | undefined,
): Promise<{ data?: string; events: SseEvent[] }> {
  const reader = response.body!.getReader();
  const parser = new SseParser();
  const events: SseEvent[] = [];
  const stop = (): void => void reader.cancel().catch(() => {});
  deadline.addEventListener('abort', stop, { once: true });
  let bytes = 0;
  let data: string | undefined;
  try {
    while (count !== 0 && bytes < MAX_SSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const event of parser.push(value)) {
        events.push(event);
        if (data === undefined && event.event === 'message' && event.data !== '') data = event.data;
        if (count === undefined ? data !== undefined : events.length >= count) return { data, events };
      }
    }
  } catch {
    // Cancelled at the deadline, or the server closed the stream: what was read is the answer.
  } finally {
    deadline.removeEventListener('abort', stop);
    stop();
  }
  return { data, events };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends one request to `url` and reads its answer within `timeoutMs` (an SSE body up to its first message). */
export async function exchange(url: string, request: ExchangeRequest, timeoutMs: number): Promise<ExchangeResponse> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const { response, outgoing } = await send(url, request, deadline);
  try {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
    const type = (headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('text/event-stream')) {
      const { data, events } = await readSse(response, deadline, request.sseEvents);
      return { status: response.status, headers, body: data === undefined ? '' : parsed(data), events };
    }
    const text = await response.text();
    return { status: response.status, headers, body: text.trim() === '' ? '' : parsed(text) };
  } finally {
    // An upload cut short by an early answer cannot finish: drop its connection.
    if (!outgoing.writableFinished) outgoing.destroy();
  }
}

/**
 * Sends `request` exactly as given (every header, `Host` included), writing the body in chunks as the socket takes
 * them and stopping as soon as a response arrives; resolves with the response as a web one. An error after the
 * response (the server closing the connection on an upload it refused) does not matter.
 */
function send(url: string, request: ExchangeRequest, deadline: AbortSignal): Promise<{ response: Response; outgoing: ClientRequest }> {
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  if (body !== undefined && body.byteLength > MAX_UPLOAD_BYTES)
    return Promise.reject(new Error(`a body of ${body.byteLength} bytes is over the ${MAX_UPLOAD_BYTES}-byte bound of an http step`));
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const make = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...request.headers };
    if (body !== undefined) {
      if (request.chunked) headers['transfer-encoding'] = 'chunked';
      else headers['content-length'] = String(body.byteLength);
    }
    let answered = false;
    const outgoing = make(target, { method: request.method, headers, signal: deadline }, (incoming: IncomingMessage) => {
      answered = true;
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
      }
      const status = incoming.statusCode ?? 0;
      const empty = status === 204 || status === 304 || request.method === 'HEAD';
      const stream = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      if (empty) incoming.resume();
      resolve({ response: new Response(stream, { status, headers: responseHeaders }), outgoing });
    });
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body === undefined || body.byteLength <= WRITE_CHUNK) {
      outgoing.end(body);
      return;
    }
    let offset = 0;
    const pump = (): void => {
      while (!answered && offset < body.byteLength) {
        const chunk = body.subarray(offset, offset + WRITE_CHUNK);
        offset += chunk.byteLength;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!answered) outgoing.end();
    };
    pump();
  });
}

/** `url` with `query` laid over its parameters (`null` removes one). */
export function withQuery(url: string, query: Readonly<Record<string, string | null>> | undefined): string {
  if (query === undefined) return url;
  const target = new URL(url);
  for (const [name, value] of Object.entries(query)) {
    if (value === null) target.searchParams.delete(name);
    else target.searchParams.set(name, value);
  }
  return target.toString();
}

/** The request of an `http` step: `headers` (the session's) with the step's laid over them (`null` removes one). */
export function exchangeRequest(
  spec: {
    readonly method: string;
    readonly headers: Readonly<Record<string, string | null>>;
    readonly body?: string | Uint8Array;
    readonly chunked?: boolean;
    readonly sseEvents?: number;
  },
  headers: Record<string, string>,
): ExchangeRequest {
  const merged = { ...headers };
  for (const [name, value] of Object.entries(spec.headers)) {
    if (value === null) delete merged[name.toLowerCase()];
    else merged[name.toLowerCase()] = value;
  }
  return {
    method: spec.method,
    headers: merged,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.chunked ? { chunked: true } : {}),
    ...(spec.sseEvents === undefined ? {} : { sseEvents: spec.sseEvents }),
  };
}
