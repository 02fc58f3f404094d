/**
 * Writes a staged bundle directory as an `.mcpb` file: a ZIP archive (deflated with fflate, the library the official
 * `mcpb` tool zips with), entries sorted and dated alike so that the same files always give the same bytes — and
 * so the same SHA-256, which `server.json` may publish — with their Unix modes kept.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { zipSync, type Zippable } from 'fflate';

/** The date of every entry: `SOURCE_DATE_EPOCH` when set (reproducible builds' convention), else a fixed one. */
function entryDate(): Date {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  // ZIP dates start in 1980.
  return Number.isFinite(epoch) && epoch >= 315_532_800 ? new Date(epoch * 1000) : new Date('2000-01-01T00:00:00Z');
}

async function filesBelow(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesBelow(path, base)));
    else if (entry.isFile()) out.push(relative(base, path));
  }
  return out;
}

/** The archive of everything below `dir`, and its SHA-256 (hex). */
export async function archiveDirectory(dir: string): Promise<{ bytes: Uint8Array; sha256: string; files: number }> {
  const mtime = entryDate();
  const entries: Zippable = {};
  const names = (await filesBelow(dir)).sort();
  for (const name of names) {
    const path = join(dir, name);
    const mode = (await stat(path)).mode & 0o777;
    // os 3 (Unix): the high 16 bits of the external attributes hold the mode of a regular file.
    entries[name.split(sep).join('/')] = [await readFile(path), { mtime, os: 3, attrs: ((0o100000 | mode) << 16) >>> 0 }];
  }
  const bytes = zipSync(entries, { level: 9, mtime });
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), files: names.length };
}
