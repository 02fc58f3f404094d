import { invalidParams } from '@wiremcp/protocol';

/**
 * Opaque cursors for list pagination. A cursor encodes the offset of the next page and the list it belongs to
 * (`tools`, `prompts`…), so a cursor of one list is refused by another. Cursors are not secret; clients treat
 * them as opaque.
 */
const PREFIX = 'wm1.';

/** Encodes the cursor of the page starting at `offset` of list `kind`. */
export function encodeCursor(kind: string, offset: number): string {
  return PREFIX + btoa(`${kind}:${offset}`).replace(/=+$/, '');
}

/** Decodes a cursor of list `kind`; `undefined` means the first page. Throws `-32602` for an invalid cursor. */
export function decodeCursor(kind: string, cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX) || cursor.length > 200) {
    throw invalidParams('Invalid cursor');
  }
  let text: string;
  try {
    text = atob(cursor.slice(PREFIX.length));
  } catch {
    throw invalidParams('Invalid cursor');
  }
  const match = /^([a-z/]+):(0|[1-9][0-9]{0,8})$/.exec(text);
  if (!match || match[1] !== kind) throw invalidParams('Invalid cursor');
  return Number(match[2]);
}

/** One page of `items` starting at the cursor, with `nextCursor` when more remain. */
export function paginate<T>(kind: string, items: readonly T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
  const offset = decodeCursor(kind, cursor);
  if (offset > items.length) throw invalidParams('Invalid cursor');
  const end = Math.min(items.length, offset + pageSize);
  const page = offset === 0 && end === items.length ? (items as T[]) : items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(kind, end) } : { page };
}
