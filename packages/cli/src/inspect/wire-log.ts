/**
 * The inspector's wire view, recorded as structured entries: every JSON-RPC message both ways with its time, and
 * over HTTP every request and response with its headers (`Mcp-*` and the rest, credentials redacted) and every SSE
 * event with its id. Taps wrap the stdio transport or the HTTP `fetch` without changing what passes through.
 *
 * The log is bounded (oldest entries dropped, bodies cut at {@link MAX_BODY_CHARS}), so a chatty server cannot
 * exhaust the inspector's memory.
 */
import type { Transport } from '@wiremcp/jsonrpc';
import type { RequestId } from '@wiremcp/protocol';
import { SseParser, type FetchLike } from '@wiremcp/transport-http';
import { ObservedTransport } from '../observed-transport.js';
import { SECRET_HEADERS } from '../secret-headers.js';

/** The most entries kept; older ones are dropped (the count of dropped entries is kept). */
export const MAX_ENTRIES = 5000;
/** The longest body text kept per entry; longer ones are cut and marked. */
export const MAX_BODY_CHARS = 256 * 1024;

/** One thing seen on the wire. */
export interface WireEntry {
  /** Position in the session, from 1. */
  readonly seq: number;
  /** Milliseconds since the inspector started. */
  readonly t: number;
  /** `out`: client → server; `in`: server → client. */
  readonly dir: 'out' | 'in';
  /** `message`: one JSON-RPC message; `http-request`/`http-response`: HTTP framing; `sse`: one SSE event. */
  readonly kind: 'message' | 'http-request' | 'http-response' | 'sse';
  /** The JSON-RPC method, when the entry carries a request or notification. */
  readonly method?: string;
  /** The JSON-RPC id, when the entry carries a request or response. */
  readonly id?: RequestId;
  /** For a response: milliseconds since the request with the same id went out. */
  readonly latencyMs?: number;
  /** HTTP method and URL of a request; status of a response. */
  readonly http?: { readonly method?: string; readonly url?: string; readonly status?: number; readonly of?: number };
  /** HTTP headers (credentials redacted). */
  readonly headers?: Readonly<Record<string, string>>;
  /** SSE event id and type. */
  readonly sse?: { readonly id: string; readonly event: string };
  /** The body as text (JSON for messages), cut at {@link MAX_BODY_CHARS}. */
  readonly body: string;
  /** True when `body` was cut. */
  readonly truncated?: boolean;
}

type Draft = Omit<WireEntry, 'seq' | 't' | 'body' | 'truncated' | 'method' | 'id' | 'latencyMs'> & { body: string };

/** The bounded log, with listeners for new entries. */
export class WireLog {
  readonly #entries: WireEntry[] = [];
  readonly #listeners = new Set<(entry: WireEntry) => void>();
  readonly #outstanding = new Map<string, number>();
  readonly #start = performance.now();
  #seq = 0;
  #dropped = 0;

  /** The entries kept, oldest first. */
  entries(): readonly WireEntry[] {
    return this.#entries;
  }

  /** How many entries were dropped to keep the log bounded. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Calls `listener` with each new entry; returns the function that stops it. */
  subscribe(listener: (entry: WireEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Records an entry; for a body that is one JSON-RPC message, its method, id and latency are filled in. */
  add(draft: Draft): WireEntry {
    const t = Math.round((performance.now() - this.#start) * 10) / 10;
    const truncated = draft.body.length > MAX_BODY_CHARS;
    const entry: WireEntry = {
      ...draft,
      ...this.#rpcFields(draft, t),
      seq: ++this.#seq,
      t,
      body: truncated ? draft.body.slice(0, MAX_BODY_CHARS) : draft.body,
      ...(truncated ? { truncated } : {}),
    };
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) {
      this.#entries.shift();
      this.#dropped++;
    }
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** Records a JSON-RPC message (or batch) travelling in `dir`. */
  message(dir: 'out' | 'in', message: unknown): void {
    for (const one of Array.isArray(message) ? message : [message]) this.add({ dir, kind: 'message', body: JSON.stringify(one) ?? '' });
  }

  #rpcFields(draft: Draft, t: number): Partial<WireEntry> {
    if (draft.kind !== 'message' && draft.kind !== 'sse' && draft.kind !== 'http-request') return {};
    let parsed: unknown;
    try {
      parsed = draft.body ? JSON.parse(draft.body) : undefined;
    } catch {
      return {};
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const { method, id } = parsed as { method?: unknown; id?: unknown };
    const fields: { method?: string; id?: RequestId; latencyMs?: number } = {};
    if (typeof method === 'string') fields.method = method;
    if (typeof id === 'string' || typeof id === 'number') {
      fields.id = id;
      const key = `${draft.dir === 'out' ? (fields.method ? 'c' : 's') : fields.method ? 's' : 'c'}:${String(id)}`;
      if (fields.method) {
        this.#outstanding.set(key, t);
        if (this.#outstanding.size > MAX_ENTRIES) this.#outstanding.delete(this.#outstanding.keys().next().value as string);
      } else {
        const sent = this.#outstanding.get(key);
        if (sent !== undefined) {
          this.#outstanding.delete(key);
          fields.latencyMs = Math.round((t - sent) * 10) / 10;
        }
      }
    }
    return fields;
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = SECRET_HEADERS.has(name) ? '[redacted]' : value));
  return record;
}

function bodyText(body: RequestInit['body']): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return `[${Object.prototype.toString.call(body)}]`;
}

/** A `fetch` that records every request, response and SSE event on `log`, passing bodies through unchanged. */
export function wireFetch(log: WireLog, inner: FetchLike = (input, init) => globalThis.fetch(input, init)): FetchLike {
  return async (input, init) => {
    const request = log.add({
      dir: 'out',
      kind: 'http-request',
      http: { method: init.method ?? 'GET', url: String(input) },
      headers: headerRecord(new Headers(init.headers)),
      body: bodyText(init.body),
    });
    const response = await inner(input, init);
    const contentType = response.headers.get('content-type') ?? '';
    log.add({
      dir: 'in',
      kind: 'http-response',
      http: { status: response.status, of: request.seq },
      headers: headerRecord(response.headers),
      body: '',
    });
    if (response.body === null) return response;
    const sse = contentType.startsWith('text/event-stream')
      ? new SseParser({
          onEvent: (event) => log.add({ dir: 'in', kind: 'sse', sse: { id: event.lastEventId, event: event.type }, body: event.data }),
        })
      : undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    const observed = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (sse) {
            try {
              sse.push(chunk);
            } catch {
              // An event beyond the parser's bound: the transport refuses it too; the wire view stops following.
            }
          } else if (size < MAX_BODY_CHARS * 4) {
            chunks.push(chunk);
            size += chunk.byteLength;
          }
          controller.enqueue(chunk);
        },
        flush() {
          if (sse) return;
          const text = new TextDecoder().decode(Buffer.concat(chunks));
          if (text) log.add({ dir: 'in', kind: 'message', body: text });
        },
      }),
    );
    return new Response(observed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Wraps a transport so that every message both ways is recorded on `log`. */
export class WireTransport extends ObservedTransport {
  constructor(inner: Transport, log: WireLog) {
    super(inner, { sent: (message) => log.message('out', message), received: (message) => log.message('in', message) });
  }
}
