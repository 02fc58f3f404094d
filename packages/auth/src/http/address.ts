/**
 * Classification of hosts and IP addresses for the fetch policy: which are loopback, and which are not public
 * (loopback, private ranges, link-local, carrier-grade NAT, unique-local, unspecified, multicast, reserved).
 */

/** The kind of a host as far as the fetch policy is concerned. */
export type AddressKind = 'loopback' | 'private' | 'public' | 'name';

function ipv4Parts(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const numbers = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return numbers.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? numbers : undefined;
}

function classifyIpv4(parts: readonly number[]): Exclude<AddressKind, 'name'> {
  const [a, b] = parts as [number, number, number, number];
  if (a === 127) return 'loopback';
  if (a === 10 || a === 0 || a >= 224) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  if (a === 192 && b === 0 && parts[2] === 0) return 'private';
  if (a === 198 && (b === 18 || b === 19)) return 'private';
  return 'public';
}

function ipv6Groups(text: string): number[] | undefined {
  let input = text;
  let tail: number[] = [];
  const lastColon = input.lastIndexOf(':');
  const dotted = ipv4Parts(input.slice(lastColon + 1));
  if (dotted) {
    tail = [(dotted[0]! << 8) | dotted[1]!, (dotted[2]! << 8) | dotted[3]!];
    input = `${input.slice(0, lastColon + 1)}0:0`;
  }
  const halves = input.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups = half.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
    return groups.every((g) => Number.isInteger(g)) ? groups : undefined;
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return undefined;
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups;
}

function classifyIpv6(groups: readonly number[]): Exclude<AddressKind, 'name'> {
  const [g0, , , , , g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const allZeroUpTo = (n: number): boolean => groups.slice(0, n).every((g) => g === 0);
  if (allZeroUpTo(7) && g7 === 1) return 'loopback';
  if (allZeroUpTo(8)) return 'private';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses take the class of the embedded IPv4 address.
  if (allZeroUpTo(5) && (g5 === 0xffff || g5 === 0)) return classifyIpv4([g6 >> 8, g6 & 255, g7 >> 8, g7 & 255]);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return 'private'; // link-local fe80::/10
  if ((g0 & 0xff00) === 0xff00) return 'private'; // multicast
  if (g0 === 0x64 && groups[1] === 0xff9b) return classifyIpv4([g6 >> 8, g6 & 255, g7 >> 8, g7 & 255]); // NAT64
  if (g0 === 0x2001 && groups[1] === 0xdb8) return 'private'; // documentation
  return 'public';
}

/**
 * Classifies an IP address literal (IPv4 dotted quad, or IPv6 with or without brackets). Returns `undefined` when
 * `address` is not an IP literal.
 */
export function classifyIp(address: string): Exclude<AddressKind, 'name'> | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = ipv4Parts(bare);
  if (v4) return classifyIpv4(v4);
  if (!bare.includes(':')) return undefined;
  const groups = ipv6Groups(bare.replace(/%.*$/, ''));
  return groups ? classifyIpv6(groups) : undefined;
}

/**
 * Classifies a URL host as the WHATWG URL parser leaves it (IPv4 normalised to dotted quad, IPv6 in brackets):
 * IP literals by range, `localhost` and `*.localhost` as loopback (RFC 6761), any other name as `'name'`.
 */
export function classifyHost(hostname: string): AddressKind {
  const ip = classifyIp(hostname);
  if (ip) return ip;
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return 'name';
}
