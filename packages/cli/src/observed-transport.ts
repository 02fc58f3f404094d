/**
 * A transport that shows every message both ways to an observer and passes it on unchanged: the one wrapper behind
 * `--trace`'s {@link TracingTransport} (trace.ts) and the inspector's `WireTransport` (inspect/wire-log.ts), which
 * differ only in what they do with a message. Everything else — start, close and its reason, transport-level
 * cancellation, errors — is the inner transport's.
 */
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';
import type { RequestId, RpcMessage } from '@wiremcp/protocol';

/** What an {@link ObservedTransport} reports: each message as it is sent, and as it is received (before `onmessage`). */
export interface TransportObserver {
  sent(message: RpcMessage | RpcMessage[]): void;
  received(message: unknown): void;
}

/** Wraps `inner` (taking over its callbacks) so that `observer` sees every message; see the module comment. */
export class ObservedTransport implements Transport {
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;
  readonly #inner: Transport;
  readonly #observer: TransportObserver;

  constructor(inner: Transport, observer: TransportObserver) {
    this.#inner = inner;
    this.#observer = observer;
    inner.onmessage = (message, info) => {
      this.#observer.received(message);
      this.onmessage?.(message, info);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  get closeReason(): Error | undefined {
    return this.#inner.closeReason;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: RpcMessage | RpcMessage[], options?: SendOptions): Promise<void> {
    this.#observer.sent(message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  cancelRequest(id: RequestId): void {
    this.#inner.cancelRequest?.(id);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
