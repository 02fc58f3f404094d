/**
 * The checks every request passes before its body is read: `Host` (DNS-rebinding protection), `Origin`, and the
 * content negotiation of the Streamable HTTP transport (`Content-Type` of a POST, `Accept` of a POST or GET).
 */
import type { HttpRequest } from './adapter-contract.js';

/** What the server side of the connection knows about it; the node adapter passes it, other runtimes may. */
export interface HttpConnectionInfo {
  /** The local address the request arrived on (`127.0.0.1`, `::1`, …). */
  readonly localAddress?: string;
  /** The local port the request arrived on. */
  readonly localPort?: number;
  /** The peer's address (the client, or the proxy in front), for per-address rate limits. */
  readonly remoteAddress?: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an IPv4 or IPv6 loopback address (including IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '127.0.0.1' || address === '::1' || address === '0:0:0:0:0:0:0:1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Splits a `Host` value into a lower-cased host name (brackets kept for IPv6) and a port (`''` when absent): the
 * name is `[…]` or everything before the first `:`, and anything but digits after that `:` makes the whole value
 * the name. (Scanned by hand rather than with a pattern: this runs for every request.)
 */
function splitHost(value: string): { name: string; port: string } {
  const host = value.trim().toLowerCase();
  if (host.charCodeAt(0) === 91 /* [ */) {
    const close = host.indexOf(']');
    if (close === host.length - 1) return { name: host, port: '' };
    if (close !== -1 && host.charCodeAt(close + 1) === 58 /* : */ && allDigits(host, close + 2)) {
      return { name: host.slice(0, close + 1), port: host.slice(close + 2) };
    }
  }
  const colon = host.indexOf(':');
  if (colon === -1) return { name: host, port: '' };
  return allDigits(host, colon + 1) ? { name: host.slice(0, colon), port: host.slice(colon + 1) } : { name: host, port: '' };
}

/** The request's `Host` (from the header, else from its URL). */
export function hostOf(request: HttpRequest): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}

/**
 * True when the `Host` may be served. `allowed`: entries `name` (any port) or `name:port`; `false`: no check;
 * `undefined`: loopback names on the bound port when the connection is a loopback one, anything otherwise.
 */
export function hostAllowed(
  host: string,
  allowed: readonly string[] | false | undefined,
  connection: HttpConnectionInfo | undefined,
): boolean {
  if (allowed === false) return true;
  const { name, port } = splitHost(host);
  if (allowed === undefined) {
    if (!isLoopbackAddress(connection?.localAddress)) return true;
    if (!LOOPBACK_NAMES.has(name)) return false;
    const bound = connection?.localPort;
    return bound === undefined || port === String(bound) || (port === '' && bound === 80);
  }
  for (const entry of allowed) {
    const wanted = splitHost(entry);
    if (wanted.name === name && (wanted.port === '' || wanted.port === port)) return true;
  }
  return false;
}

/**
 * True when a request with this `Origin` may be served. No `Origin` (a non-browser client): yes. `'*'`: yes. A
 * list: exact matches (scheme, host and port). Default: the request's own origin, and on loopback connections any
 * loopback origin.
 */
export function originAllowed(
  origin: string | null,
  host: string,
  allowed: readonly string[] | '*' | undefined,
  connection: HttpConnectionInfo | undefined,
): boolean {
  if (origin === null || allowed === '*') return true;
  if (Array.isArray(allowed)) {
    const normalised = normaliseOrigin(origin);
    return normalised !== undefined && allowed.some((entry) => normaliseOrigin(entry) === normalised);
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.host === host.trim().toLowerCase()) return true;
  return isLoopbackAddress(connection?.localAddress) && LOOPBACK_NAMES.has(url.hostname.toLowerCase());
}

function normaliseOrigin(value: string): string | undefined {
  if (value === 'null') return 'null';
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/** True when the `Content-Type` is JSON in UTF-8 (`application/json`, optionally with `charset=utf-8`). */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const semicolon = value.indexOf(';');
  const type = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  if (type !== 'application/json') return false;
  if (semicolon === -1) return true;
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(value.slice(semicolon))?.[1];
  return charset === undefined || charset.toLowerCase() === 'utf-8' || charset.toLowerCase() === 'utf8';
}

/** What an `Accept` header allows: JSON, SSE, or both. */
export interface Acceptance {
  readonly json: boolean;
  readonly sse: boolean;
}

const BOTH: Acceptance = { json: true, sse: true };
const NONE: Acceptance = { json: false, sse: false };

/** Reads an `Accept` header (media ranges, wildcards, `q=0` refusals). Absent: nothing is accepted (MCP requires it). */
export function acceptance(value: string | null): Acceptance {
  if (value === null) return NONE;
  if (value === 'application/json, text/event-stream' || value === 'text/event-stream, application/json') return BOTH;
  let json = false;
  let sse = false;
  for (const part of value.toLowerCase().split(',')) {
    const [rangeText, ...params] = part.split(';');
    if (params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param))) continue;
    const range = rangeText!.trim();
    if (range === '*/*') return BOTH;
    if (range === 'application/json' || range === 'application/*') json = true;
    else if (range === 'text/event-stream' || range === 'text/*') sse = true;
  }
  return { json, sse };
}

/** True when `text` from `from` on holds only ASCII digits (true for none: callers that need one check the length). */
export function allDigits(text: string, from = 0): boolean {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
