/**
 * Opaque page cursors of the extension's lists: the list they belong to and the offset of the next page, so a
 * cursor of one list (or of another directory) is refused by another with `-32602`.
 */
import { invalidParams } from '@wiremcp/protocol';

const PREFIX = 'sk1.';

/** The cursor of the page at `offset` of list `scope`. */
export function encodeCursor(scope: string, offset: number): string {
  return PREFIX + btoa(`${offset}:${hashOf(scope)}`);
}

/** The offset a cursor of list `scope` names (0 without a cursor); throws `-32602` for anything else. */
export function decodeCursor(scope: string, cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX) || cursor.length > 64) throw invalidParams('Invalid cursor');
  let text: string;
  try {
    text = atob(cursor.slice(PREFIX.length));
  } catch {
    throw invalidParams('Invalid cursor');
  }
  const match = /^(0|[1-9][0-9]{0,8}):([0-9a-f]{8})$/.exec(text);
  if (!match || match[2] !== hashOf(scope)) throw invalidParams('Invalid cursor');
  return Number(match[1]);
}

/** One page of `items` at `cursor`, with `nextCursor` when more remain. */
export function pageOf<T>(scope: string, items: readonly T[], cursor: unknown, size: number): { page: T[]; nextCursor?: string } {
  const offset = decodeCursor(scope, cursor);
  if (offset > items.length) throw invalidParams('Invalid cursor');
  const end = Math.min(items.length, offset + size);
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(scope, end) } : { page };
}

/** FNV-1a of the scope: ties a cursor to its list without putting the list's URI in it. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
