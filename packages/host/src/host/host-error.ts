/**
 * The host's own failures, with a string code: a name that routes nowhere, a server that is not connected, a call
 * the user did not allow, a host that is closed.
 */

/** Why the host refused or could not complete an operation. */
export type HostErrorCode =
  /** No tool, prompt or resource of that name in the catalogue (or it is filtered out). */
  | 'UNKNOWN_NAME'
  /** A resource URI that more than one server offers, and no server was named. */
  | 'AMBIGUOUS_NAME'
  /** No server of that name. */
  | 'UNKNOWN_SERVER'
  /** The server is not connected (starting, restarting, failed, disabled). */
  | 'SERVER_UNAVAILABLE'
  /** The consent hook refused the tool call. */
  | 'CONSENT_DENIED'
  /** The host is closed. */
  | 'HOST_CLOSED';

/** A failure of the host itself (calls to servers fail with the client's `RpcError` and `LocalError`). */
export class HostError extends Error {
  readonly code: HostErrorCode;
  /** The server concerned, when there is one. */
  readonly server: string | undefined;

  constructor(code: HostErrorCode, message: string, options: { server?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostError';
    this.code = code;
    this.server = options.server;
  }
}

/** True when `error` is a {@link HostError} (with `code`, when given). */
export function isHostError(error: unknown, code?: HostErrorCode): error is HostError {
  return error instanceof HostError && (code === undefined || error.code === code);
}
