/**
 * Opening a connection: a typed peer with the client's handlers installed, the transport (or the factory's
 * transports) attached, the era negotiated — from the era cache when it knows the server — and the session made.
 */
import { isLocalError, LocalError, type LogLevel } from '@wiremcp/protocol';
import { Peer, type Transport } from '@wiremcp/jsonrpc';
import { cacheCall, cacheEntry, type EraCache } from './era-cache.js';
import { negotiate, type Negotiated } from './handshake.js';
import { installLegacyHandlers } from './input-handlers.js';
import type { NotificationRouter } from './notification-router.js';
import { Session } from './session.js';
import type { ClientSettings } from './settings.js';
import { TransportLink, type TransportFactory } from './transport-link.js';
import type { ClientPeer } from './types.js';

/** What opening a connection needs from the client. */
export interface ConnectHost {
  readonly settings: ClientSettings;
  /** Receives errors not tied to a call. */
  readonly report: (error: unknown) => void;
  /** The `onError` option, if given (transport errors are passed on only then). */
  readonly onError: ((error: unknown) => void) | undefined;
  readonly eraCache: EraCache;
  readonly router: NotificationRouter;
  /** The log level set before connecting, if any (modern requests carry it). */
  readonly logLevel: LogLevel | undefined;
  /** The connection of `session` closed. */
  closed(session: Session): void;
}

/**
 * Connects and negotiates. `started` receives the peer before anything is sent, so that `close()` can end an
 * attempt in progress. On failure the peer is closed and the error rethrown.
 */
export async function openSession(
  source: Transport | TransportFactory,
  serverKey: string | undefined,
  host: ConnectHost,
  started: (peer: ClientPeer) => void,
): Promise<Session> {
  const settings = host.settings;
  const peer: ClientPeer = new Peer({
    requestTimeoutMs: settings.requestTimeoutMs,
    onInternalError: host.onError && ((error) => host.report(error)),
  });
  started(peer);
  let session: Session | undefined;
  // Bytes that are not JSON before the session exists: the server is not speaking MCP on this channel (a stdio server
  // printing a banner on stdout). Waiting for the handshake's timeout would only hide the reason, so it fails now.
  let garbled!: (error: Error) => void;
  const notJsonRpc = new Promise<never>((_resolve, reject) => (garbled = reject));
  notJsonRpc.catch(() => {});
  try {
    peer.onerror = (error) => {
      if (session === undefined && isLocalError(error, 'PARSE_ERROR')) garbled(handshakeGarbled(error));
      host.onError?.(error);
    };
    peer.onclose = () => session && host.closed(session);
    installLegacyHandlers(peer, settings.handlers, () => session?.protocolVersion ?? settings.legacyVersion);
    host.router.install(peer, () => session);
    const link = new TransportLink(peer, source);
    const cache = serverKey === undefined || settings.era !== 'auto' ? undefined : host.eraCache;
    const cached = cache ? await cacheCall(() => cache.get(serverKey!)) : undefined;
    let negotiated: Negotiated;
    try {
      negotiated = await Promise.race([negotiate(link, settings, cached ?? undefined), notJsonRpc]);
      await link.connected(negotiated.era);
    } catch (error) {
      if (cached) await cacheCall(() => cache!.delete(serverKey!));
      throw error;
    }
    if (!peer.transport) throw peer.closeReason ?? new LocalError('CONNECTION_CLOSED', 'The connection closed during the handshake');
    session = new Session(peer, negotiated, { ...settings, report: host.report }, host.logLevel);
    if (cache) await cacheCall(() => cache.set(serverKey!, cacheEntry(negotiated)));
    return session;
  } catch (error) {
    await peer.close().catch(() => {});
    throw error;
  }
}

/** The handshake's failure when the server sent something that is not JSON: what arrived, quoted (bounded). */
function handshakeGarbled(error: LocalError): LocalError {
  const start = (error.details as { start?: unknown } | undefined)?.start;
  const quoted = typeof start === 'string' ? `: ${JSON.stringify(start)}` : '';
  return new LocalError(
    'PROTOCOL_VIOLATION',
    `The server sent something that is not JSON-RPC during the handshake${quoted} (${error.message}). ` +
      'A stdio server must write only protocol messages on stdout; its logs belong on stderr.',
    { cause: error },
  );
}
