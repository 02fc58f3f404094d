/**
 * `file:` URIs of resources: from a path (percent-encoded as RFC 8089 wants) and back (decoded strictly: no host,
 * no encoded `/`, no NUL — what it decodes to is then resolved like any client path, `..` included).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The URI template of files. */
export const FILE_TEMPLATE = 'file://{+path}';

/** The `file:` URI of an absolute path. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The absolute path a `file:` URI names, or undefined when it is not a usable local file URI. */
export function uriToPath(uri: string): string | undefined {
  if (typeof uri !== 'string' || !/^file:/i.test(uri)) return undefined;
  try {
    const path = fileURLToPath(new URL(uri));
    return path.includes('\0') ? undefined : path;
  } catch {
    return undefined;
  }
}
