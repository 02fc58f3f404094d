/**
 * The errors of the filesystem server: a stable code and a readable message that names only what the client gave
 * (its path, shortened when long), never a host path, an allow-list entry or a raw errno text.
 */

/** Stable codes, also sent in a tool error's `_meta` (`dev.wiremcp/errorCode`). */
export type FsErrorCode =
  | 'outside_allowed_directories'
  | 'denied_by_pattern'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'is_a_directory'
  | 'already_exists'
  | 'hard_link_refused'
  | 'read_only_file'
  | 'binary_file'
  | 'too_large'
  | 'invalid_path'
  | 'invalid_arguments'
  | 'symlink_loop'
  | 'not_empty'
  | 'cross_device'
  | 'changed_during_operation'
  | 'no_match'
  | 'roots_unavailable'
  | 'time_budget_exceeded'
  | 'cancelled'
  | 'permission_denied'
  | 'io_error';

const MAX_ECHO = 300;

/** A client-supplied string as it may appear in a message: bounded in length, with control characters escaped. */
export function echo(text: string): string {
  const short = text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
  return short.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A failure a tool reports to the client as an `isError` result. */
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FsError';
  }
}

/** Builders for the common failures, each naming the client's own path. */
export const fail = {
  outside: (path: string) => new FsError('outside_allowed_directories', `Access denied - path outside allowed directories: ${echo(path)}`),
  denied: (path: string) => new FsError('denied_by_pattern', `Access denied - path matches a deny pattern of this server: ${echo(path)}`),
  notFound: (path: string) => new FsError('not_found', `No such file or directory: ${echo(path)}`),
  notFile: (path: string) => new FsError('not_a_file', `Not a regular file: ${echo(path)}`),
  notDirectory: (path: string) => new FsError('not_a_directory', `Not a directory: ${echo(path)}`),
  isDirectory: (path: string) => new FsError('is_a_directory', `Is a directory: ${echo(path)}`),
  exists: (path: string) => new FsError('already_exists', `Destination already exists: ${echo(path)}`),
  hardLink: (path: string, links: number) =>
    new FsError(
      'hard_link_refused',
      `Access denied - ${echo(path)} has ${links} hard links, and one of them may be outside the allowed directories ` +
        '(the server runs without --allow-hardlinks)',
    ),
  readOnly: (path: string) =>
    new FsError(
      'read_only_file',
      `The file is read-only (no write permission bits): ${echo(path)}; make it writable first if that is intended`,
    ),
  invalidPath: (path: string, why: string) => new FsError('invalid_path', `Invalid path ${echo(path)}: ${why}`),
  loop: (path: string) => new FsError('symlink_loop', `Too many levels of symbolic links: ${echo(path)}`),
};

/** Maps an errno failure of an operation on `path` (the client's text) to an FsError; anything else is rethrown. */
export function fromErrno(error: unknown, path: string): FsError {
  if (error instanceof FsError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return fail.notFound(path);
    case 'ENOTDIR':
      return fail.notDirectory(path);
    case 'EISDIR':
      return fail.isDirectory(path);
    case 'EEXIST':
      return fail.exists(path);
    case 'ELOOP':
      return fail.loop(path);
    case 'ENOTEMPTY':
      return new FsError('not_empty', `Directory not empty: ${echo(path)}`);
    case 'EXDEV':
      return new FsError('cross_device', `Cannot move across filesystems: ${echo(path)}`);
    case 'EACCES':
    case 'EPERM':
      return new FsError('permission_denied', `Permission denied by the operating system: ${echo(path)}`);
    case 'ENAMETOOLONG':
      return fail.invalidPath(path, 'a name in it is too long');
    case 'EINVAL':
      return fail.invalidPath(path, 'the operation is not valid for it');
    default:
      return new FsError('io_error', `I/O error${typeof code === 'string' ? ` (${code})` : ''} on ${echo(path)}`);
  }
}
