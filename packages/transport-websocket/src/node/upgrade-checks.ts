/**
 * The checks an upgrade request passes before it becomes an MCP connection, as for Streamable HTTP: `Host`
 * (DNS-rebinding protection: on a loopback bind only loopback names on the bound port), `Origin` (browsers: the
 * same host, loopback origins on a loopback bind, or the allowed list), and the `mcp` subprotocol.
 */

/** What the checks need to know about the listener. */
export interface UpgradePolicy {
  /** Hosts served (`name` or `name:port`); default: loopback names on the bound port when bound to loopback. */
  readonly allowedHosts?: readonly string[];
  /** Origins allowed (exact `scheme://host[:port]`), or `'*'`; default as in the module comment. */
  readonly allowedOrigins?: readonly string[] | '*';
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** True for an address of the loopback range (IPv4, IPv6, IPv4-mapped). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.replace(/^::ffff:/, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** `name` and `port` of a `Host` value, lower-cased; IPv6 names keep their brackets. */
function parseHost(value: string): { name: string; port: string } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(value.trim().toLowerCase());
  return match ? { name: match[1]!, port: match[2] ?? '' } : { name: value, port: '' };
}

/** Why the upgrade is refused (a status and a short text), or `undefined` when it may proceed. */
export function refuseUpgrade(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  local: { address?: string; port?: number },
  policy: UpgradePolicy,
): { status: number; text: string } | undefined {
  const host = typeof headers.host === 'string' ? headers.host : '';
  const { name, port } = parseHost(host);
  if (policy.allowedHosts) {
    const ok = policy.allowedHosts.some((entry) => {
      const wanted = parseHost(entry);
      return wanted.name === name && (wanted.port === '' || wanted.port === port);
    });
    if (!ok) return { status: 403, text: 'Host not allowed' };
  } else if (isLoopback(local.address) && (!LOOPBACK.test(name) || (port !== '' && port !== String(local.port)))) {
    return { status: 403, text: 'Host not allowed (DNS rebinding protection)' };
  }
  const origin = typeof headers.origin === 'string' ? headers.origin : undefined;
  if (origin !== undefined && policy.allowedOrigins !== '*' && !originOk(origin, host, local.address, policy.allowedOrigins)) {
    return { status: 403, text: 'Origin not allowed' };
  }
  const protocols = String(headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((entry) => entry.trim());
  if (!protocols.includes('mcp')) return { status: 400, text: "the 'mcp' subprotocol is required (Sec-WebSocket-Protocol: mcp)" };
  return undefined;
}

function originOk(origin: string, host: string, localAddress: string | undefined, allowed: readonly string[] | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowed) return allowed.some((entry) => entry === url.origin || entry === origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.host === host.trim().toLowerCase()) return true;
  return isLoopback(localAddress) && LOOPBACK.test(url.hostname.toLowerCase().replace(/^([^[].*:.*)$/, '[$1]'));
}
