/**
 * Two settings a client tells its server, each in its era's way: the log level (legacy `logging/setLevel`, modern
 * `_meta` on every later request) and a change of roots (legacy `notifications/roots/list_changed`; modern: nothing,
 * the server asks for roots on each request that needs them).
 */
import { LocalError, type LogLevel } from '@wiremcp/protocol';
import type { CallOptions } from './options.js';
import type { Session } from './session.js';

/** Sets the minimum level of `notifications/message` on `session`. */
export async function setLevel(session: Session, level: LogLevel, options: CallOptions | undefined): Promise<void> {
  if (session.era === 'legacy') await session.request('logging/setLevel', { level }, options);
  else {
    const missing = session.gate('logging/setLevel');
    if (missing) throw missing;
  }
  session.setLogLevel(level);
}

/** Tells a legacy server that the roots changed (needs the `roots` capability); nothing for a modern one. */
export function rootsChanged(session: Session): Promise<void> {
  if (session.era === 'modern') return Promise.resolve();
  if (!session.clientCapabilities.roots)
    return Promise.reject(new LocalError('CAPABILITY_NOT_SUPPORTED', 'The client declared no roots capability'));
  return session.peer.notify('notifications/roots/list_changed');
}
