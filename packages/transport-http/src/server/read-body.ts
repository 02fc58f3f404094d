/**
 * Reading a request body under the handler's limits: a `Content-Length` above the limit is refused before anything
 * is read, a body that grows past it is cut off while it is read (never buffered whole, by the adapter's
 * `readBody`), and a body that takes too long (a slowloris client) is abandoned.
 */
import type { BodyRead, HttpRequest } from './adapter-contract.js';
import type { Deadlines } from './deadlines.js';
import { allDigits } from './request-checks.js';

/** The outcome of {@link readBody}. */
export type BodyResult =
  { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly status: 400 | 408 | 413; readonly message: string };

class BodyTimeout extends Error {}

/** What the handler's body deadlines do to a read that is still running when its deadline passes: cancel it. */
export function expireBodyRead(read: BodyRead): void {
  read.cancel(new BodyTimeout('request body timeout'));
}

/**
 * Reads the body of `request` within `maxBytes`, giving up at the deadline `deadlines` sets. (Not an async function:
 * the read's own promise is continued, without a frame and a second promise per request.)
 */
export function readBody(request: HttpRequest, maxBytes: number, deadlines: Deadlines<BodyRead>): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    const digits = declared.trim();
    // Checked by hand rather than with a pattern: this runs for every request.
    if (digits.length === 0 || !allDigits(digits))
      return Promise.resolve({ ok: false, status: 400, message: 'Invalid Content-Length header' });
    if (Number(digits) > maxBytes) return Promise.resolve(tooLarge(maxBytes));
  }
  const read = request.readBody(maxBytes);
  const deadline = deadlines.add(read);
  return read.bytes.then(
    (bytes) => {
      deadline.clear();
      return bytes === undefined ? tooLarge(maxBytes) : { ok: true, bytes };
    },
    (error: unknown) => {
      deadline.clear();
      if (error instanceof BodyTimeout) return timedOut();
      return { ok: false, status: 400, message: 'The request body could not be read' };
    },
  );
}

function tooLarge(maxBytes: number): BodyResult {
  return { ok: false, status: 413, message: `The request body is larger than the ${maxBytes}-byte limit` };
}

function timedOut(): BodyResult {
  return { ok: false, status: 408, message: 'The request body was not received in time' };
}
