/**
 * A lingering close for HTTP/1.1 responses sent before their request body was read to the end (a 413 refused on its
 * `Content-Length`, or once the body grew past the limit) with `Connection: close`. Node closes such a connection
 * at once after the response, and a client still uploading then gets a TCP reset that can discard the response
 * from its receive buffer before it reads it: it sees EPIPE/ECONNRESET instead of the 413. RFC 9112 §9.6 asks for
 * a staged close instead, which this does: the write side is shut (the response is complete), the rest of the
 * upload is read and discarded, and the socket is destroyed once the client closes its side — or after
 * {@link LINGER_MS} or {@link LINGER_BYTES}, so that a client that keeps sending costs bounded time and traffic.
 */
import type { Socket } from 'node:net';
import type { NodeRequest } from './node-request.js';

/** How long a refused upload may keep its connection after the response (ms). */
export const LINGER_MS = 5_000;
/** How many more bytes of a refused upload are read and discarded before the connection is cut. */
export const LINGER_BYTES = 16 * 1024 * 1024;

type ClosableSocket = Socket & { destroySoon?: () => void };

/**
 * Makes the HTTP/1.1 connection of `req` close in stages when its response closes it (`connectionHeader` is the
 * response's `Connection`: `close`) while the
 * request body is still arriving. No effect on HTTP/2 (a stream reset there does not touch the response), on a
 * request already read to the end, or on a connection kept alive (Node reads the rest of the body itself).
 */
export function lingerIfUnread(req: NodeRequest, connectionHeader: string | null): void {
  if (req.complete || 'stream' in req || connectionHeader?.toLowerCase() !== 'close') return;
  const socket = req.socket as ClosableSocket | null;
  // Node ends a `Connection: close` response's socket through `destroySoon` (shut the write side, then destroy).
  if (socket === null || typeof socket.destroySoon !== 'function') return;
  socket.destroySoon = function lingeringClose(this: ClosableSocket): void {
    if (this.writable) this.end();
    let discarded = 0;
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded > LINGER_BYTES) this.destroy();
    });
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
    // The body reader paused the request once it passed the limit; flowing again lets the parser discard the rest.
    req.resume();
    this.resume();
  };
}
