/**
 * Server-provided DPoP nonces (RFC 9449 §8, §9) without server state: a nonce is a time slot and its HMAC under a
 * secret, valid for the current and the previous slot. Several instances sharing the secret accept each other's
 * nonces.
 */
import { base64url } from 'jose';

/** Options of {@link DpopNonceSource}. */
export interface DpopNonceOptions {
  /** HMAC secret (at least 32 bytes). Default: random per instance, so nonces are only valid on this instance. */
  readonly secret?: Uint8Array;
  /** Length of a time slot in seconds (default 120); a nonce is accepted for one to two slots. */
  readonly slotSeconds?: number;
  /** Clock in milliseconds since the epoch. */
  readonly now?: () => number;
}

/** Issues and checks stateless DPoP nonces. */
export class DpopNonceSource {
  readonly #key: Promise<CryptoKey>;
  readonly #slotSeconds: number;
  readonly #now: () => number;

  constructor(options: DpopNonceOptions = {}) {
    const secret = options.secret ?? crypto.getRandomValues(new Uint8Array(32));
    if (secret.byteLength < 32) throw new RangeError('a DPoP nonce secret must be at least 32 bytes');
    this.#key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.#slotSeconds = options.slotSeconds ?? 120;
    this.#now = options.now ?? Date.now;
  }

  #slot(): number {
    return Math.floor(this.#now() / 1000 / this.#slotSeconds);
  }

  async #forSlot(slot: number): Promise<string> {
    const data = new TextEncoder().encode(`dpop-nonce:${slot}`);
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, data));
    return `${slot.toString(36)}.${base64url.encode(mac.subarray(0, 18))}`;
  }

  /** The nonce to hand out now. */
  current(): Promise<string> {
    return this.#forSlot(this.#slot());
  }

  /** True when `nonce` was issued in the current or the previous slot. */
  async isValid(nonce: unknown): Promise<boolean> {
    if (typeof nonce !== 'string' || nonce.length > 64) return false;
    const slot = parseInt(nonce.split('.')[0] ?? '', 36);
    const now = this.#slot();
    if (!Number.isSafeInteger(slot) || (slot !== now && slot !== now - 1)) return false;
    return (await this.#forSlot(slot)) === nonce;
  }
}
