/**
 * Where the handshake's attempts run: one transport given to `connect` (stdio: every attempt on it), or a
 * transport factory (HTTP: a 2026-07-28 POST first, then a Streamable HTTP session for `initialize`, then the
 * 2024-11-05 HTTP+SSE transport — each attempt may be a different `Transport`).
 */
import { LocalError, type Era } from '@wiremcp/protocol';
import type { Transport } from '@wiremcp/jsonrpc';
import type { HandshakeLink } from './handshake.js';
import type { ClientPeer } from './types.js';

/** One attempt of era detection, as a {@link TransportFactory} is asked for it. */
export interface TransportAttempt {
  /** `modern`: the attempt sends `server/discover` (2026-07-28); `legacy`: it sends `initialize`. */
  readonly era: Era;
  /** 1 for the first attempt of this `connect`, then 2, 3… (at most {@link MAX_TRANSPORT_ATTEMPTS}). */
  readonly attempt: number;
  /** Why the previous attempt failed (an `RpcError`, a `LocalError`, or the non-discover answer to the probe). */
  readonly previousError?: unknown;
  /** The transport of the previous attempt: return it to keep using it (it is then not closed). */
  readonly previous?: Transport;
}

/**
 * Makes the transport of one attempt. Return `attempt.previous` to stay on the same transport; return a new one
 * and the previous is closed; throw (for instance `attempt.previousError`) to give up, which fails `connect` with
 * that error. Asked again after a failed `initialize`, so a legacy server can be tried over another transport.
 */
export type TransportFactory = (attempt: TransportAttempt) => Transport | Promise<Transport>;

/** The most attempts one `connect` makes with a factory (a modern probe, then up to three legacy transports). */
export const MAX_TRANSPORT_ATTEMPTS = 4;

/** A {@link HandshakeLink} over a transport or a factory; the peer is reconnected when the transport changes. */
export class TransportLink implements HandshakeLink {
  readonly switchable: boolean;
  readonly #peer: ClientPeer;
  readonly #source: Transport | TransportFactory;
  #current: Transport | undefined;
  #attempts = 0;
  /** The factory refused (threw): no more attempts. */
  #refused = false;

  constructor(peer: ClientPeer, source: Transport | TransportFactory) {
    this.#peer = peer;
    this.#source = source;
    this.switchable = typeof source === 'function';
  }

  async peer(era: Era, previousError?: unknown): Promise<ClientPeer> {
    const source = this.#source;
    if (typeof source !== 'function') {
      if (this.#current === undefined) {
        this.#current = source;
        await this.#peer.connect(source);
      }
      return this.#peer;
    }
    if (this.#attempts >= MAX_TRANSPORT_ATTEMPTS) {
      throw previousError ?? new LocalError('CONNECTION_CLOSED', `No transport connected after ${MAX_TRANSPORT_ATTEMPTS} attempts`);
    }
    this.#attempts += 1;
    const previous = this.#current;
    let next: Transport;
    try {
      next = await source({ era, attempt: this.#attempts, previousError, previous });
    } catch (error) {
      this.#refused = true;
      throw error;
    }
    if (next === previous) return this.#peer;
    if (previous !== undefined) await this.#peer.close();
    this.#current = next;
    await this.#peer.connect(next);
    return this.#peer;
  }

  canRetryLegacy(): boolean {
    return this.switchable && !this.#refused && this.#attempts < MAX_TRANSPORT_ATTEMPTS;
  }

  /** Makes sure a transport is connected for the negotiated era (a cached discover result needs no attempt). */
  async connected(era: Era): Promise<ClientPeer> {
    return this.#current === undefined ? this.peer(era) : this.#peer;
  }
}
