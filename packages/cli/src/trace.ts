/**
 * `wiremcp trace` and `--trace`: the bytes both ways, printed the way the protocol's documentation prints a
 * session — a `// Client → Server` or `// Server → Client` line, then what went over the wire.
 *
 * - stdio: each outbound message exactly as written (framed: NDJSON line or Content-Length header and body);
 *   each inbound message as it was decoded, serialized again (same members in the same order; whitespace the
 *   server put between tokens is not kept).
 * - HTTP: every request (method, URL, headers, body) and every response (status, headers, then the body as it
 *   arrives, chunk by chunk, so an SSE stream shows its events as they come).
 */
import { frameJson, type Framing } from '@wiremcp/framing';
import type { Transport } from '@wiremcp/jsonrpc';
import type { FetchLike } from '@wiremcp/transport-http';
import { ObservedTransport } from './observed-transport.js';
import type { Style } from './style.js';
import { SECRET_HEADERS } from './secret-headers.js';

/** Where trace lines go (standard error by default, so `--json` output on stdout stays clean). */
export interface TraceSink {
  /** A block of bytes sent by the client. */
  sent(text: string): void;
  /** A block of bytes received from the server. */
  received(text: string): void;
}

/** A sink writing `// Client → Server` / `// Server → Client` blocks to `write`, coloured by `style`. */
export function traceSink(write: (text: string) => void, style: Style): TraceSink {
  const block = (heading: string, text: string): void => {
    const body = text.endsWith('\n') ? text : `${text}\n`;
    write(`${heading}\n${body}`);
  };
  return {
    sent: (text) => block(style.cyan('// Client → Server'), text),
    received: (text) => block(style.magenta('// Server → Client'), text),
  };
}

/** Wraps a stdio transport so that every message is shown on `sink`, framed as `framing` writes it; see the module comment. */
export class TracingTransport extends ObservedTransport {
  constructor(inner: Transport, sink: TraceSink, framing: Framing) {
    super(inner, {
      sent: (message) => sink.sent(frameJson(message, framing) ?? ''),
      received: (message) => sink.received(frameJson(message, framing) ?? ''),
    });
  }
}

function headerLines(headers: Headers): string {
  const lines: string[] = [];
  headers.forEach((value, name) => lines.push(`${name}: ${SECRET_HEADERS.has(name) ? '[redacted]' : value}`));
  return lines.join('\n');
}

function bodyText(body: RequestInit['body']): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return `[${Object.prototype.toString.call(body)}]`;
}

/** A `fetch` that shows every request and response on `sink` (credentials redacted) and passes the body through unchanged. */
export function tracingFetch(sink: TraceSink, inner: FetchLike = (input, init) => globalThis.fetch(input, init)): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init.headers);
    const body = bodyText(init.body);
    sink.sent(`${init.method ?? 'GET'} ${String(input)}\n${headerLines(headers)}\n${body ? `\n${body}` : ''}`);
    const response = await inner(input, init);
    sink.received(`HTTP ${response.status} ${response.statusText}\n${headerLines(response.headers)}\n`);
    if (response.body === null) return response;
    const decoder = new TextDecoder();
    const shown = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const text = decoder.decode(chunk, { stream: true });
          if (text) sink.received(text);
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(shown, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
