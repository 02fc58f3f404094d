/**
 * The legacy (2025-03-26 … 2025-11-25) session of a Streamable HTTP client transport: the `Mcp-Session-Id` the
 * `initialize` response assigned and the negotiated version, echoed on every later request, and what a 404 on a
 * request that carried the id does — fail with `SESSION_EXPIRED`, or, when asked, send the same `initialize` again
 * (once for every request that notices) and go on in the new session.
 */
import { LocalError, type RpcRequest } from '@wiremcp/protocol';
import { sessionExpired } from './errors.js';
import type { InternalRequester } from './tool-refresh.js';

/** What a session needs from its transport. */
export interface LegacySessionHost {
  readonly renew: boolean;
  /** Requests of the transport's own (the renewed `initialize`). */
  readonly internal: InternalRequester;
  /** POSTs `notifications/initialized` in the current session. */
  initialized(): Promise<void>;
  /** True while the transport is open. */
  isOpen(): boolean;
  /** Closes the transport with this reason. */
  close(reason: LocalError): void;
}

const SESSION_ID = /^[\x21-\x7e]+$/;

/** The session state; see the module documentation. */
export class LegacySession {
  /** The session id, once `initialize` was answered with one. */
  id: string | undefined;
  /** The negotiated version (from the `initialize` result), sent as `MCP-Protocol-Version`. */
  protocolVersion: string | undefined;
  readonly #host: LegacySessionHost;
  #initRequest: RpcRequest | undefined;
  #renewing: Promise<boolean> | undefined;

  constructor(host: LegacySessionHost) {
    this.#host = host;
  }

  /** An `initialize` is being sent: a new session starts (nothing of the old one is echoed). */
  begin(request: RpcRequest): void {
    this.id = undefined;
    this.protocolVersion = undefined;
    this.#initRequest = request;
  }

  /** Adds the session headers to `headers`. */
  headers(headers: Record<string, string>): Record<string, string> {
    if (this.id !== undefined) headers['mcp-session-id'] = this.id;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  /** Takes the session id of the `initialize` response, if it has one (visible ASCII only). */
  take(response: Response): void {
    const id = response.headers.get('mcp-session-id');
    if (id === null) return;
    if (!SESSION_ID.test(id)) throw new LocalError('PROTOCOL_VIOLATION', 'The server sent an Mcp-Session-Id that is not visible ASCII');
    this.id = id;
  }

  /**
   * A request that carried `session` got a 404: resolves true once a new session replaced it (send again), false
   * when the transport closes with `SESSION_EXPIRED` instead.
   */
  expired(session: string): Promise<boolean> {
    if (this.id !== undefined && this.id !== session) return Promise.resolve(true);
    if (this.#renewing) return this.#renewing;
    if (!this.#host.renew || this.#initRequest === undefined || !this.#host.isOpen()) {
      this.#expire(undefined);
      return Promise.resolve(false);
    }
    this.#renewing = this.#renew(this.#initRequest).finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  async #renew(initRequest: RpcRequest): Promise<boolean> {
    const previous = this.protocolVersion;
    this.id = undefined;
    this.protocolVersion = undefined;
    try {
      await this.#host.internal.request({ ...initRequest, id: this.#host.internal.nextId('initialize') }, 'legacy', true);
      if (this.protocolVersion !== previous) {
        throw new LocalError(
          'UNSUPPORTED_PROTOCOL_VERSION',
          `The new session negotiated ${String(this.protocolVersion)}, not ${String(previous)}`,
        );
      }
      await this.#host.initialized();
      return true;
    } catch (error) {
      this.#expire(error);
      return false;
    }
  }

  #expire(cause: unknown): void {
    if (!this.#host.isOpen()) return;
    const error = sessionExpired();
    this.id = undefined;
    this.#host.close(cause === undefined ? error : new LocalError('SESSION_EXPIRED', `${error.message}; renewing it failed`, { cause }));
  }
}
