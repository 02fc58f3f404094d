/**
 * The client side of MCP over WebSocket: opens `url` with the subprotocol `mcp` on the runtime's own `WebSocket`
 * (browsers, Deno, Bun, Node ≥ 22), or on the `ws` library where there is none (Node 20) or where headers must be
 * sent at the upgrade (a bearer token: the browser API cannot send headers).
 */
import type { MessageInfo, Transport } from '@wiremcp/jsonrpc';
import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import { MCP_SUBPROTOCOL, SocketTransport, type SocketLimits, type WebSocketLike } from './socket-transport.js';

/** A `WebSocket` constructor (the global one, or `ws`'s). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[], options?: object) => WebSocketLike;

/** Options of {@link WebSocketClientTransport}. */
export interface WebSocketClientTransportOptions extends SocketLimits {
  /** Headers of the upgrade request, e.g. `{ authorization: 'Bearer …' }` (sent with `ws`; browsers cannot). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `WebSocket` to use (default: the global one, else `ws`; `ws` whenever `headers` are given). */
  readonly WebSocket?: WebSocketConstructor;
  /** Longest wait for the connection to open, in ms (default 10 000). */
  readonly openTimeoutMs?: number;
}

async function constructorFor(options: WebSocketClientTransportOptions): Promise<{ ctor: WebSocketConstructor; isWs: boolean }> {
  if (options.WebSocket) return { ctor: options.WebSocket, isWs: false };
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global && options.headers === undefined) return { ctor: global, isWs: false };
  try {
    const ws = (await import('ws')) as unknown as { WebSocket: WebSocketConstructor };
    return { ctor: ws.WebSocket, isWs: true };
  } catch (error) {
    const why = options.headers ? 'upgrade headers need the ws package' : 'this runtime has no WebSocket and the ws package is missing';
    throw new LocalError('NOT_CONNECTED', `${why} (npm install ws)`, { cause: error });
  }
}

/** MCP over WebSocket, client side; see the module comment. */
export class WebSocketClientTransport implements Transport {
  onmessage?: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  readonly #url: string;
  readonly #options: WebSocketClientTransportOptions;
  #inner: SocketTransport | undefined;
  #closed = false;

  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    this.#url = String(url);
    this.#options = options;
  }

  /** Why the connection ended, when it was not a normal close. */
  get closeReason(): Error | undefined {
    return this.#inner?.closeReason;
  }

  /** Opens the connection; rejects when it cannot open or the server does not speak the `mcp` subprotocol. */
  async start(): Promise<void> {
    if (this.#inner || this.#closed) throw new LocalError('ALREADY_CONNECTED', 'the WebSocket transport was already started');
    const { ctor, isWs } = await constructorFor(this.#options);
    const wsOptions = isWs
      ? { headers: this.#options.headers ?? {}, maxPayload: this.#options.maxMessageBytes ?? 4 * 1024 * 1024 }
      : undefined;
    const socket = wsOptions ? new ctor(this.#url, [MCP_SUBPROTOCOL], wsOptions) : new ctor(this.#url, [MCP_SUBPROTOCOL]);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(`the WebSocket did not open within ${this.#options.openTimeoutMs ?? 10_000} ms`),
        this.#options.openTimeoutMs ?? 10_000,
      );
      const fail = (message: string): void => {
        clearTimeout(timer);
        try {
          socket.close();
        } catch {
          // Not open yet.
        }
        reject(new LocalError('NOT_CONNECTED', message));
      };
      (socket as unknown as { addEventListener(type: 'open', listener: () => void): void }).addEventListener('open', () => {
        if (socket.protocol !== MCP_SUBPROTOCOL)
          return fail(`the server at ${this.#url} did not accept the '${MCP_SUBPROTOCOL}' subprotocol`);
        clearTimeout(timer);
        resolve();
      });
      socket.addEventListener('close', (event) => fail(`could not connect to ${this.#url} (close code ${event.code})`));
      socket.addEventListener('error', (event) =>
        fail(`could not connect to ${this.#url}: ${(event as { message?: string }).message ?? 'connection failed'}`),
      );
    });
    const inner = new SocketTransport(socket, this.#options);
    inner.onmessage = (message, info) => this.onmessage?.(message, info);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.#closed = true;
      this.onclose?.();
    };
    this.#inner = inner;
    await inner.start();
  }

  send(message: RpcMessage | RpcMessage[]): Promise<void> {
    if (!this.#inner) return Promise.reject(new LocalError('NOT_CONNECTED', 'the WebSocket transport is not started'));
    return this.#inner.send(message);
  }

  async close(): Promise<void> {
    if (this.#inner) return this.#inner.close();
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
