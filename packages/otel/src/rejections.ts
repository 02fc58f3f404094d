/**
 * Why an HTTP answer refused a request, read from the answer actually sent (status and `WWW-Authenticate`):
 * whatever refused it — authentication, the Origin/Host check, the body limit, a rate limiter added in front —
 * is counted without that code knowing about metrics.
 */
import type { RejectionReason } from './mcp-metrics.js';

/** The reason of a refusal, or `undefined` for an answer that is not one (2xx, 3xx, 404, 405, a JSON-RPC error). */
export function rejectionReason(status: number, wwwAuthenticate: string | null | undefined): RejectionReason | undefined {
  switch (status) {
    case 401:
      return 'auth';
    case 403:
      // A 403 with a challenge is authorization (insufficient_scope); without one, the Origin/Host check.
      return wwwAuthenticate ? 'auth' : 'origin';
    case 413:
      return 'size';
    case 429:
      return 'rate_limit';
    case 400:
    case 406:
    case 408:
    case 415:
      return 'invalid';
    case 503:
      return 'unavailable';
    default:
      return undefined;
  }
}
