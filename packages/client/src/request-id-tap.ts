/**
 * A pass-through transport that remembers the id of the last request written.
 *
 * Why: `Peer.request` does not reveal the JSON-RPC id it assigns, but a `subscriptions/listen` stream is identified
 * by exactly that id (its notifications carry it in `_meta.subscriptionId`, and the client cancels it by id). The
 * peer writes a request synchronously inside `request()`, so reading `lastRequestId` right after the call yields
 * that request's id. Inbound traffic is not wrapped: the handlers the peer installs go straight to the inner
 * transport, so receiving costs nothing extra.
 */
import type { RequestId, RpcMessage } from '@wiremcp/protocol';
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';

/** Wraps `inner`; see the module comment. */
export class RequestIdTap implements Transport {
  /** The id of the last request sent through this transport. */
  lastRequestId: RequestId | undefined;
  readonly inner: Transport;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get onmessage(): ((message: unknown, info?: MessageInfo) => void) | undefined {
    return this.inner.onmessage;
  }
  set onmessage(handler: ((message: unknown, info?: MessageInfo) => void) | undefined) {
    this.inner.onmessage = handler;
  }
  get onerror(): ((error: Error) => void) | undefined {
    return this.inner.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.inner.onerror = handler;
  }
  get onclose(): (() => void) | undefined {
    return this.inner.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.inner.onclose = handler;
  }
  get onend(): (() => void) | undefined {
    return this.inner.onend;
  }
  set onend(handler: (() => void) | undefined) {
    this.inner.onend = handler;
  }
  get closeReason(): Error | undefined {
    return this.inner.closeReason;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: RpcMessage | RpcMessage[], options?: SendOptions): Promise<void> {
    const id = (message as { id?: RequestId }).id;
    if (id !== undefined && (message as { method?: string }).method !== undefined) this.lastRequestId = id;
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  cancelRequest(id: RequestId): void {
    this.inner.cancelRequest?.(id);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.inner.close();
  }
}
