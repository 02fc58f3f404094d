/**
 * One HTTP request outside the session's own message flow, for scenarios that check the transport itself:
 * any method, any headers (the session's own, removable one by one), any body; the status, headers and body
 * of the response come back for matching. An SSE response is read up to its first message event (a stream the
 * server keeps open would never end), a JSON body is parsed. Sent with `node:http` rather than `fetch`: `fetch`
 * drops a `Host` header it is given, and the Host rows of the table are what such a step checks.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { SseParser } from './sse-parser.js';

/** A request of an `http` step, its headers already merged with the session's defaults. */
export interface ExchangeRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What came back: status, headers (lower-case names) and the body — parsed JSON when it is JSON, else its text. */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Reads the first `message` event of an SSE body, or the whole text when the stream ends first; then cancels the rest. */
async function firstSseData(response: Response, deadline: AbortSignal): Promise<string | undefined> {
  const reader = response.body!.getReader();
  const parser = new SseParser();
  const stop = (): void => void reader.cancel().catch(() => {});
  deadline.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      for (const event of parser.push(value)) if (event.event === 'message' && event.data !== '') return event.data;
    }
  } catch {
    return undefined;
  } finally {
    deadline.removeEventListener('abort', stop);
    stop();
  }
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
  const response = await send(url, request, deadline);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('text/event-stream')) {
    const data = await firstSseData(response, deadline);
    return { status: response.status, headers, body: data === undefined ? '' : parsed(data) };
  }
  const text = await response.text();
  return { status: response.status, headers, body: text.trim() === '' ? '' : parsed(text) };
}

/** Sends `request` exactly as given (every header, `Host` included) and resolves with the response as a web one. */
function send(url: string, request: ExchangeRequest, deadline: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const make = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = make(target, { method: request.method, headers: request.headers, signal: deadline }, (incoming: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const status = incoming.statusCode ?? 0;
      const empty = status === 204 || status === 304 || request.method === 'HEAD';
      const body = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      if (empty) incoming.resume();
      resolve(new Response(body, { status, headers }));
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
