/**
 * How a failed command reports: one human line on stderr, or — when the command was given `--json` — one JSON
 * object on stdout, so that a script reading the command's JSON gets JSON whatever happened. Kept free of the
 * protocol packages so that usage errors stay cheap (an `RpcError` is recognised by its shape).
 */
import type { Style } from './style.js';

/** The JSON a failed `--json` command prints: `{"error": {...}}`. */
export interface JsonFailure {
  readonly error: {
    /** The same text the human form prints. */
    readonly message: string;
    /** The process's exit code (see the exit codes in the README). */
    readonly exitCode: number;
    /** The server's JSON-RPC error, when the failure is one. */
    readonly rpc?: { readonly code: number; readonly message: string; readonly data?: unknown };
  };
}

/** The JSON-RPC error in `error`'s cause chain (an `RpcError` of `@wiremcp/protocol`), if any. */
function rpcErrorIn(error: unknown): JsonFailure['error']['rpc'] {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1) {
    const candidate = at as Error & { code?: unknown; data?: unknown };
    if (candidate.name === 'RpcError' && typeof candidate.code === 'number')
      return { code: candidate.code, message: candidate.message, ...(candidate.data === undefined ? {} : { data: candidate.data }) };
  }
  return undefined;
}

/** Writes a command's failure: JSON on `stdout` when `json`, else `wiremcp: <message>` on `stderr`. */
export function reportFailure(
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
  style: Style,
  json: boolean,
  failure: { message: string; exitCode: number; error?: unknown; unexpected?: boolean },
): void {
  if (json) {
    const rpc = rpcErrorIn(failure.error);
    const body: JsonFailure = { error: { message: failure.message, exitCode: failure.exitCode, ...(rpc ? { rpc } : {}) } };
    io.stdout.write(`${JSON.stringify(body)}\n`);
    return;
  }
  io.stderr.write(`${style.red(failure.unexpected ? 'wiremcp: unexpected error:' : 'wiremcp:')} ${failure.message}\n`);
}
