/**
 * Writing a web `Response` to a Node response: status and headers, then the body — the text of the handler's JSON
 * responses directly, any other body chunk by chunk as it is produced (an SSE stream is never buffered), waiting
 * for `drain` when the socket is full. A client that goes away cancels the body (for an SSE stream: the stream
 * ends, which for a 2026-07-28 request is its cancellation).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { PlainResponse, RAW_BODY } from '../server/plain-response.js';
import { rawBodyOf } from '../server/responses.js';
import type { NodeResponse } from './node-request.js';

/** Headers that HTTP/2 forbids (connection-specific); dropped when writing to an HTTP/2 response. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function nodeHeaders(response: Response, http2: boolean): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (http2 && CONNECTION_SPECIFIC.has(name)) return;
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** The head of a {@link PlainResponse}, from its header record (no `Headers` iteration). */
function plainHeaders(response: PlainResponse, http2: boolean): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...response.plainHeaders.record };
  if (http2) for (const name of CONNECTION_SPECIFIC) delete headers[name];
  const cookies = response.plainHeaders.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/**
 * Writes `response` to `res`; resolves once it is fully written or the client went away. Never rejects. The
 * handler's own responses ({@link PlainResponse}) are written in one `writeHead` and one `end`.
 */
export function writeResponse(response: Response, res: NodeResponse): Promise<void> {
  const http2 = 'stream' in res;
  if ((response as unknown) instanceof PlainResponse) {
    const plain = response as unknown as PlainResponse;
    const headers = plainHeaders(plain, http2);
    const text = plain[RAW_BODY];
    if (text === undefined) {
      res.writeHead(plain.status, headers);
      res.end();
    } else {
      headers['content-length'] = Buffer.byteLength(text);
      res.writeHead(plain.status, headers);
      res.end(text);
    }
    return RESOLVED;
  }
  return writeWebResponse(response, res, http2);
}

const RESOLVED = Promise.resolve();

async function writeWebResponse(response: Response, res: NodeResponse, http2: boolean): Promise<void> {
  const raw = rawBodyOf(response);
  if (raw !== undefined) {
    const headers = nodeHeaders(response, http2);
    headers['content-length'] = Buffer.byteLength(raw);
    res.writeHead(response.status, headers);
    res.end(raw);
    return;
  }
  res.writeHead(response.status, nodeHeaders(response, http2));
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  // Headers go out now: an SSE client must see the stream open before the first event.
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  const reader = body.getReader();
  let gone = false;
  const onClose = (): void => {
    gone = true;
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!(res as { write(chunk: Uint8Array): boolean }).write(value)) await drained(res);
    }
  } catch {
    // The body failed (or was cancelled); end what was sent.
  } finally {
    res.off('close', onClose);
    if (!gone && !res.writableEnded) res.end();
  }
}

function drained(res: NodeResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
