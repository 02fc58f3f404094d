import type { RequestId } from '@wiremcp/protocol';

/**
 * The default receiver of internal errors (handler exceptions, send failures): stderr through `console.error`,
 * naming the method and request. The peer never sees these texts; it gets a bare `-32603 Internal error`.
 */
export function reportInternalError(error: unknown, context: { method?: string; id?: RequestId | null }): void {
  const where = context.method ? ` (${context.method}${context.id !== undefined ? ` #${String(context.id)}` : ''})` : '';
  console.error(`[wiremcp] internal error${where}:`, error);
}
