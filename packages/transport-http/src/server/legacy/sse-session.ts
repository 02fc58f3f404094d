/**
 * One session of the deprecated 2024-11-05 HTTP+SSE transport: a GET opens the session's SSE stream, whose first
 * event (`endpoint`) names the URL the client POSTs its messages to; every server message is a `message` event on
 * that one stream. The session lives as long as the stream: when the client drops it, the session ends.
 */
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';
import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import { encodeSseEvent } from '../../sse/encode.js';
import type { HttpServable, HttpServedConnection } from '../servable.js';
import type { BusMessage } from '../session-bus.js';
import type { SseConnection } from '../sse-connection.js';
import type { LiveSession } from './session-registry.js';

const RESOLVED = Promise.resolve();

/** See the module comment. */
export class SseSession implements LiveSession, Transport {
  readonly id: string;
  readonly principalKey: string | undefined;
  lastActivityAt: number;
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;
  readonly #stream: SseConnection;
  readonly #ended: (session: SseSession) => void;
  #served: HttpServedConnection | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(id: string, principalKey: string | undefined, stream: SseConnection, now: number, ended: (session: SseSession) => void) {
    this.id = id;
    this.principalKey = principalKey;
    this.lastActivityAt = now;
    this.#stream = stream;
    this.#ended = ended;
    stream.onclosed = () => void this.end(0);
  }

  /** Always in use while it exists: the session ends with its stream. */
  get busy(): boolean {
    return !this.#closed;
  }

  /** Connects the server and announces the POST URL (`endpoint` event). */
  async open(server: HttpServable, endpoint: string): Promise<void> {
    this.#served = await server.connect(this);
    this.#stream.write(encodeSseEvent({ event: 'endpoint', data: endpoint }));
  }

  /** Hands a POSTed message to the server. */
  deliver(message: unknown, info: MessageInfo, now: number): void {
    this.lastActivityAt = now;
    this.onmessage?.(message, info);
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.#closed || !this.#stream.open)
      return Promise.reject(new LocalError('NOT_CONNECTED', 'The SSE stream of this session is closed'));
    this.#stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return RESOLVED;
  }

  /** Ends the session: the server connection first (listen streams, requests in progress), then the stream. */
  end(graceMs = 1000): Promise<void> {
    // Forgotten at once: a POST that arrives while the server connection closes gets 404, not a closed transport.
    this.#ended(this);
    this.#closing ??= (async () => {
      try {
        if (this.#served && !this.#closed) await this.#served.close(graceMs);
      } finally {
        void this.close();
      }
    })();
    return this.#closing;
  }

  /** The transport side of closing (the server's connection calls it): the stream ends, the session is forgotten. */
  close(): Promise<void> {
    this.#shut();
    return RESOLVED;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #shut(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream.close();
    const onclose = this.onclose;
    this.onmessage = this.onerror = this.onclose = undefined;
    onclose?.();
    this.#ended(this);
  }
}

/** Delivers a message POSTed to another process for this session (see `RemoteSseSession`), as if POSTed here. */
export function deliverForwarded(session: SseSession, message: Extract<BusMessage, { kind: 'deliver' }>, now: number): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.json);
  } catch {
    return;
  }
  const info: MessageInfo & { headers: Readonly<Record<string, string>>; auth?: unknown; sessionId: string } = {
    headers: message.headers ?? {},
    sessionId: session.id,
    ...(message.auth === undefined ? {} : { auth: message.auth }),
  };
  session.deliver(parsed, info, now);
}
