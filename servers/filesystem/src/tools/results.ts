/**
 * Building tool results: text for the model, structured data for programs (never the same text twice), notes
 * that say what a limit cut, and stat objects with ISO times.
 */
import type { Stats } from 'node:fs';
import type { CallToolResult, ContentBlock } from '@wiremcp/server';
import type { EntryKind } from '../ops/walk.js';
import { FsError } from '../sandbox/errors.js';

/** A successful result: `text` for the model, `structured` for programs, optional extra blocks. */
export function ok(text: string, structured: Record<string, unknown>, extra: ContentBlock[] = []): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

/** A note block saying what a limit left out and how to get the rest. */
export function note(text: string): ContentBlock {
  return { type: 'text', text: `[${text}]` };
}

/** An argument error. */
export function invalid(message: string): FsError {
  return new FsError('invalid_arguments', message);
}

/** Bytes of `text` in UTF-8. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A date as ISO 8601, or undefined for the epoch (a time the file system does not keep). */
export function iso(date: Date): string | undefined {
  return date.getTime() > 0 ? date.toISOString() : undefined;
}

/** What an lstat says an entry is. */
export function kindOfStat(stat: Stats): EntryKind {
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
}

/** A stat object for get_file_info. */
export function fileInfo(path: string, stat: Stats, viaSymlink: boolean): Record<string, unknown> {
  const info: Record<string, unknown> = { path, type: kindOfStat(stat), size: stat.size };
  const created = iso(stat.birthtime);
  if (created) info.created = created;
  info.modified = stat.mtime.toISOString();
  info.accessed = stat.atime.toISOString();
  info.permissions = (stat.mode & 0o777).toString(8).padStart(3, '0');
  info.mode = stat.mode & 0o7777;
  info.isDirectory = stat.isDirectory();
  info.isFile = stat.isFile();
  if (viaSymlink) info.viaSymlink = true;
  return info;
}

/** A number with thousands separators (for notes), as `toLocaleString('en-US')` writes it. */
export function count(value: number): string {
  // Integers are grouped by hand: the first toLocaleString call loads ICU's locale data (~20 ms), and the tool
  // descriptions call this at start.
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** A size as the official server formats it (B, KB, MB… with two decimals). */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  if (bytes <= 0) return '0 B';
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  return i === 0 ? `${bytes} B` : `${(bytes / 1024 ** i).toFixed(2)} ${units[i]}`;
}
