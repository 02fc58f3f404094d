/**
 * Writing to a Node response: a handler's {@link HttpReply} (status and headers in one `writeHead`, a text body in
 * one `end`), or a web `Response` of any other fetch handler. A stream body is written chunk by chunk as it is
 * produced (an SSE stream is never buffered), waiting for `drain` when the socket is full; a client that goes away
 * cancels it (for an SSE stream: the stream ends, which for a 2026-07-28 request is its cancellation).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { HttpReply } from '../server/adapter-contract.js';
import type { NodeResponse } from './node-request.js';

/** Headers that HTTP/2 forbids (connection-specific); dropped when writing to an HTTP/2 response. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

const RESOLVED = Promise.resolve();

/**
 * The head of a reply, from its header record (no `Headers` iteration). Over HTTP/1 without cookies that is the record
 * itself (a reply is written once; `Content-Length` is added to it), with no copy per reply.
 */
function replyHead(reply: HttpReply, http2: boolean): OutgoingHttpHeaders {
  const cookies = reply.headers.cookies();
  if (!http2 && cookies.length === 0) return reply.headers.record;
  const headers: OutgoingHttpHeaders = { ...reply.headers.record };
  if (http2) for (const name of CONNECTION_SPECIFIC) delete headers[name];
  if (cookies.length > 0) headers['set-cookie'] = [...cookies];
  return headers;
}

/** The head of a web `Response`. */
function webHead(response: Response, http2: boolean): OutgoingHttpHeaders {
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

/** Writes `reply` to `res`; resolves once it is fully written or the client went away. Never rejects. */
export function writeReply(reply: HttpReply, res: NodeResponse): Promise<void> {
  const http2 = 'stream' in res;
  const headers = replyHead(reply, http2);
  const body = reply.body;
  if (body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return RESOLVED;
  }
  if (typeof body === 'string') {
    headers['content-length'] = Buffer.byteLength(body);
    res.writeHead(reply.status, headers);
    res.end(body);
    return RESOLVED;
  }
  res.writeHead(reply.status, headers);
  return writeStream(body, res);
}

/** Writes a web `Response` (of a fetch handler other than this package's) to `res`. Never rejects. */
export function writeWebResponse(response: Response, res: NodeResponse): Promise<void> {
  res.writeHead(response.status, webHead(response, 'stream' in res));
  const body = response.body;
  if (body === null) {
    res.end();
    return RESOLVED;
  }
  return writeStream(body, res);
}

async function writeStream(body: ReadableStream<Uint8Array>, res: NodeResponse): Promise<void> {
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
