/**
 * Reading a request body under the handler's limits: a `Content-Length` above the limit is refused before anything
 * is read, a body that grows past it is cut off while it is read (never buffered whole), and a body that takes too
 * long (a slowloris client) is abandoned. The node adapter gives requests a direct reader (see {@link BODY_READER})
 * that skips the web stream; other runtimes use `request.body`.
 */
import type { Deadlines } from './deadlines.js';
import { allDigits } from './request-checks.js';

/** Where a request may carry a direct body reader (the node adapter's); shared across module copies. */
export const BODY_READER: unique symbol = Symbol.for('@wiremcp/transport-http.body-reader') as never;

/**
 * Where a request may carry a direct way to hear that its client went away (the node adapter's), cheaper than
 * `request.signal` (no `AbortController` and `EventTarget` per request): called with a callback, it returns the
 * function that stops listening. Shared across module copies.
 */
export const ON_CLIENT_GONE: unique symbol = Symbol.for('@wiremcp/transport-http.on-client-gone') as never;

/** See {@link ON_CLIENT_GONE}. */
export type ClientGoneHook = (callback: () => void) => () => void;

/**
 * Calls `callback` when the client of `request` goes away before its response is finished; returns the function
 * that stops listening. Through the adapter's {@link ON_CLIENT_GONE} when it has one, else `request.signal`.
 */
export function onClientGone(request: Request, callback: () => void): () => void {
  const hook = (request as Request & { [ON_CLIENT_GONE]?: ClientGoneHook })[ON_CLIENT_GONE];
  if (hook !== undefined) return hook.call(request, callback);
  const signal = request.signal;
  signal.addEventListener('abort', callback, { once: true });
  return () => signal.removeEventListener('abort', callback);
}

/**
 * A direct body reader, called as a method of the request: reads at most `maxBytes`, resolving with the bytes, or `undefined` once the body proved
 * larger (having stopped reading it). `cancel` abandons the read; the promise then rejects.
 */
export type BodyReader = (maxBytes: number) => { readonly bytes: Promise<Uint8Array | undefined>; cancel(reason: Error): void };

/** The outcome of {@link readBody}. */
export type BodyResult =
  { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly status: 400 | 408 | 413; readonly message: string };

const EMPTY = new Uint8Array(0);

class BodyTimeout extends Error {}

/** Reads the body of `request` within `maxBytes`, giving up at the deadline `deadlines` sets. */
export async function readBody(request: Request, maxBytes: number, deadlines: Deadlines): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    const digits = declared.trim();
    // Checked by hand rather than with a pattern: this runs for every request.
    if (digits.length === 0 || !allDigits(digits)) return { ok: false, status: 400, message: 'Invalid Content-Length header' };
    if (Number(digits) > maxBytes) return tooLarge(maxBytes);
  }
  const direct = (request as Request & { [BODY_READER]?: BodyReader })[BODY_READER];
  if (direct) {
    const read = direct.call(request, maxBytes);
    const deadline = deadlines.add(() => read.cancel(new BodyTimeout('request body timeout')));
    try {
      const bytes = await read.bytes;
      return bytes === undefined ? tooLarge(maxBytes) : { ok: true, bytes };
    } catch (error) {
      if (error instanceof BodyTimeout) return timedOut();
      return { ok: false, status: 400, message: 'The request body could not be read' };
    } finally {
      deadline.clear();
    }
  }
  const body = request.body;
  if (body === null) return { ok: true, bytes: EMPTY };
  const reader = body.getReader();
  let timedOutFlag = false;
  const deadline = deadlines.add(() => {
    timedOutFlag = true;
    reader.cancel(new BodyTimeout('request body timeout')).catch(() => {});
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        return tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch {
    return timedOutFlag ? timedOut() : { ok: false, status: 400, message: 'The request body could not be read' };
  } finally {
    deadline.clear();
  }
  if (timedOutFlag) return timedOut();
  if (chunks.length === 1) return { ok: true, bytes: chunks[0]! };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

function tooLarge(maxBytes: number): BodyResult {
  return { ok: false, status: 413, message: `The request body is larger than the ${maxBytes}-byte limit` };
}

function timedOut(): BodyResult {
  return { ok: false, status: 408, message: 'The request body was not received in time' };
}
