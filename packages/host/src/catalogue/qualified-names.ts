/**
 * Namespaced names: `<server><separator><name>` (`github.create_issue`). Two entries can still collide when a
 * separator appears inside names (server `a` tool `b.c` and server `a.b` tool `c`); then the entry of the server that
 * comes first in the configuration (and, within a server, the smaller name) keeps the plain name and the others get
 * `_2`, `_3`… — the smallest suffix that no other entry's plain name uses. Names depend only on the configuration and
 * on what the servers list, never on which server answered first.
 */

/** An entry to name: its server's position in the configuration, the server, and the name the server gave. */
export interface NameRequest {
  readonly order: number;
  readonly server: string;
  readonly name: string;
}

/** Qualified names for `entries` (same order as given). */
export function qualifyNames(entries: readonly NameRequest[], separator: string): string[] {
  const plain = entries.map((entry) => `${entry.server}${separator}${entry.name}`);
  const taken = new Set(plain);
  const order = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.order - b.entry.order || compare(a.entry.name, b.entry.name) || a.index - b.index);
  const assigned = new Set<string>();
  const out: string[] = new Array<string>(entries.length);
  for (const { index } of order) {
    let name = plain[index]!;
    if (assigned.has(name)) {
      let n = 2;
      while (taken.has(`${name}_${n}`) || assigned.has(`${name}_${n}`)) n++;
      name = `${name}_${n}`;
    }
    assigned.add(name);
    out[index] = name;
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
