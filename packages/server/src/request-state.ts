/**
 * Integrity-protected `requestState` for input-required results (2026-07-28 MRTR).
 *
 * The spec treats `requestState` as attacker-controlled: a server that lets it influence logic MUST protect it
 * and SHOULD bind it to the originating request and give it a short lifetime. Here the state is
 * `base64url(payload) "." base64url(HMAC-SHA-256(key, payload))`, where the payload records the method, a
 * SHA-256 digest of the request's own params (without `_meta`, `inputResponses`, `requestState`), the time it
 * was issued, the input keys still outstanding, and the answers received in earlier rounds (so a handler that
 * asks for several inputs one after another sees all of them on the final retry).
 */
import { invalidParams } from '@wiremcp/protocol';

/** What a verified state carries. */
export interface RequestStatePayload {
  /** Method of the originating request. */
  readonly m: string;
  /** base64url SHA-256 of the canonical JSON of the request params (minus per-round fields). */
  readonly d: string;
  /** Issued at, ms since the epoch. */
  readonly t: number;
  /** Input keys asked for in the round that produced this state. */
  readonly k: readonly string[];
  /** Answers received in earlier rounds, by key. */
  readonly a: Readonly<Record<string, unknown>>;
}

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as object)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** The params that identify a request across MRTR rounds. */
function identifyingParams(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params ?? {};
  return rest;
}

/** Options of {@link RequestStateSigner}. */
export interface RequestStateOptions {
  /** The HMAC key: bytes or a string of at least 32 characters. Default: 32 random bytes per process. */
  key?: Uint8Array | string;
  /** Lifetime of a state in ms (default 10 minutes). */
  ttlMs?: number;
}

/** Signs and verifies `requestState` values. */
export class RequestStateSigner {
  /** The key's bytes until first use (undefined: 32 random bytes then); afterwards the imported key. */
  #raw: Uint8Array | undefined;
  #key: Promise<CryptoKey> | undefined;
  readonly #ttlMs: number;

  constructor(options: RequestStateOptions = {}) {
    if (typeof options.key === 'string') {
      if (options.key.length < 32) throw new RangeError('requestState key must be at least 32 characters');
      this.#raw = encoder.encode(options.key);
    } else if (options.key !== undefined) {
      if (options.key.length < 16) throw new RangeError('requestState key must be at least 16 bytes');
      this.#raw = options.key.slice();
    }
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
  }

  /**
   * The HMAC key, made on first use: every server builds a signer, few ever sign, and loading Web Crypto for it is a
   * good part of a server's cold start.
   */
  #hmacKey(): Promise<CryptoKey> {
    if (this.#key === undefined) {
      const raw = this.#raw ?? crypto.getRandomValues(new Uint8Array(32));
      this.#raw = undefined;
      this.#key = crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    }
    return this.#key;
  }

  async #digest(params: Record<string, unknown> | undefined): Promise<string> {
    const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(identifyingParams(params))));
    return toBase64Url(new Uint8Array(hash));
  }

  /** Issues a state for a request that still needs the inputs `keys`, carrying earlier `answers`. */
  async sign(
    method: string,
    params: Record<string, unknown> | undefined,
    keys: readonly string[],
    answers: Record<string, unknown>,
  ): Promise<string> {
    const payload: RequestStatePayload = { m: method, d: await this.#digest(params), t: Date.now(), k: keys, a: answers };
    const body = encoder.encode(JSON.stringify(payload));
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.#hmacKey(), body as BufferSource));
    return `${toBase64Url(body)}.${toBase64Url(mac)}`;
  }

  /**
   * Verifies a state received on a retry of `method` with `params`; resolves with its payload or rejects with a
   * `-32602` RpcError saying why (tampered, expired, or issued for another request).
   */
  async verify(state: unknown, method: string, params: Record<string, unknown> | undefined): Promise<RequestStatePayload> {
    if (typeof state !== 'string' || state.length > 1_000_000)
      throw invalidParams('Invalid requestState: not a state issued by this server');
    const dot = state.indexOf('.');
    const body = dot > 0 ? fromBase64Url(state.slice(0, dot)) : undefined;
    const mac = dot > 0 ? fromBase64Url(state.slice(dot + 1)) : undefined;
    if (!body || !mac || !(await crypto.subtle.verify('HMAC', await this.#hmacKey(), mac as BufferSource, body as BufferSource))) {
      throw invalidParams('Invalid requestState: integrity check failed');
    }
    let payload: RequestStatePayload;
    try {
      payload = JSON.parse(new TextDecoder().decode(body)) as RequestStatePayload;
    } catch {
      throw invalidParams('Invalid requestState: malformed');
    }
    if (payload.m !== method || payload.d !== (await this.#digest(params))) {
      throw invalidParams('Invalid requestState: it was issued for a different request');
    }
    if (!(Date.now() - payload.t <= this.#ttlMs)) throw invalidParams('Invalid requestState: expired, start the request again');
    return payload;
  }
}
