/**
 * Host resolution for the fetch policy's private-address refusal (`FetchPolicy.resolveHost`), using the system
 * resolver. The check happens before the request; a resolver that changes its answer between the check and the
 * connection (DNS rebinding) is not covered, so keep `refusePrivateAddresses` as one layer among others.
 */
import { lookup } from 'node:dns/promises';

/** Every address `hostname` resolves to (IPv4 and IPv6). */
export async function nodeResolveHost(hostname: string): Promise<readonly string[]> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const results = await lookup(bare, { all: true, verbatim: true });
  return results.map((result) => result.address);
}
