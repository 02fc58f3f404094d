/**
 * Who listens on a loopback TCP port, read from Linux's `/proc`: the sockets in `LISTEN` state that take
 * connections to 127.0.0.1:port (`/proc/net/tcp`, `/proc/net/tcp6`), and whether a process started by the app —
 * the child itself, a process in its process group, or a descendant (an `npx` or `sh -c` wrapper's server) — holds
 * each of them (the socket inodes among `/proc/<pid>/fd`). A port that accepts connections proves nothing on its
 * own: another program, or another server told the same port, may be the one answering.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

/** Who holds the listening sockets of a port. */
export type PortOwnership =
  /** Every listener that takes 127.0.0.1:port belongs to the started process (or its group or descendants). */
  | { readonly kind: 'ours' }
  /** At least one such listener belongs to another process; `holder` names it when it could be found. */
  | { readonly kind: 'other'; readonly holder: string }
  /** Nothing listens on the port (any more). */
  | { readonly kind: 'none' }
  /** `/proc/net/tcp` cannot be read (not Linux): ownership cannot be checked here. */
  | { readonly kind: 'unknown' };

// 127.0.0.1 and 0.0.0.0 as /proc writes them (host byte order: little- or big-endian machines).
const IPV4_LOOPBACK_OR_ANY = new Set(['0100007F', '7F000001', '00000000']);
// :: (a dual-stack wildcard takes IPv4 connections) and ::ffff:127.0.0.1, in either byte order.
const IPV6_LOOPBACK_OR_ANY = new Set([
  '00000000000000000000000000000000',
  '0000000000000000FFFF00000100007F',
  '00000000000000000000FFFF7F000001',
]);
const LISTEN = '0A';

/** The inodes of the sockets listening on `port` that take connections to 127.0.0.1; undefined without `/proc`. */
export async function listeningInodes(port: number): Promise<Set<string> | undefined> {
  const tables = await Promise.all(
    (['tcp', 'tcp6'] as const).map((name) =>
      readFile(`/proc/net/${name}`, 'utf8').then(
        (text) => ({ name, text }),
        () => undefined,
      ),
    ),
  );
  if (tables.every((table) => table === undefined)) return undefined;
  const inodes = new Set<string>();
  for (const table of tables) {
    if (table === undefined) continue;
    const accepted = table.name === 'tcp' ? IPV4_LOOPBACK_OR_ANY : IPV6_LOOPBACK_OR_ANY;
    for (const line of table.text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      const [address, hexPort] = fields[1]!.split(':');
      if (hexPort === undefined || Number.parseInt(hexPort, 16) !== port || !accepted.has(address!.toUpperCase())) continue;
      inodes.add(fields[9]!);
    }
  }
  return inodes;
}

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
}

async function processes(): Promise<ProcessEntry[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const entries = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
        // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
        const rest = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
        return rest === undefined ? undefined : { pid: Number(name), ppid: Number(rest[1]), pgrp: Number(rest[2]) };
      }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** The started process, the processes of its group (spawned `detached`) and its descendants. */
async function family(root: number): Promise<number[]> {
  const all = await processes();
  const members = new Set([root, ...all.filter((entry) => entry.pgrp === root).map((entry) => entry.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all) {
      if (!members.has(entry.pid) && members.has(entry.ppid)) {
        members.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

async function socketInodes(pid: number): Promise<Set<string>> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter((inode): inode is string => inode !== undefined));
}

/** `pid <n> (<command name>)` of a process holding one of `inodes`, found by reading every process's fds. */
async function holderOf(inodes: ReadonlySet<string>): Promise<string> {
  for (const { pid } of await processes()) {
    const held = await socketInodes(pid);
    if ([...inodes].some((inode) => held.has(inode))) {
      const name = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      return `pid ${pid}${name ? ` (${name})` : ''}`;
    }
  }
  return 'a process this user cannot inspect';
}

/** Whether the listeners of 127.0.0.1:`port` belong to process `pid` (with its group and descendants); see the module comment. */
export async function portOwnership(port: number, pid: number): Promise<PortOwnership> {
  const listening = await listeningInodes(port);
  if (listening === undefined) return { kind: 'unknown' };
  if (listening.size === 0) return { kind: 'none' };
  const foreign = new Set(listening);
  // The started process itself is the usual holder: its fds first, the whole process table only when needed.
  for (const inode of await socketInodes(pid)) foreign.delete(inode);
  if (foreign.size > 0) {
    for (const member of await family(pid)) {
      if (member === pid) continue;
      for (const inode of await socketInodes(member)) foreign.delete(inode);
    }
  }
  return foreign.size === 0 ? { kind: 'ours' } : { kind: 'other', holder: await holderOf(foreign) };
}
