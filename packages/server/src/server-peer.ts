/**
 * The JSON-RPC engine typed for a server: what it receives from clients and sends them, per the generated maps.
 */
import type { Peer, RequestContext } from '@wiremcp/jsonrpc';
import type { ClientNotificationMap, ClientRequestMap, JsonObject, ServerNotificationMap, ServerRequestMap } from '@wiremcp/protocol';

/** A server's peer: receives client requests and notifications, sends server requests (legacy) and notifications. */
export type ServerPeer = Peer<ClientRequestMap, ServerRequestMap, ClientNotificationMap, ServerNotificationMap>;

/** The context of one request a server handles: what it may send back while handling it. */
export type ServerRequestContext = RequestContext<ServerRequestMap, ServerNotificationMap>;

/** Request params as they come off the wire: any JSON object, checked by whoever reads them. */
export type WireParams = JsonObject | undefined;

/** A value, or a promise of it: built-in handlers answer synchronously where they can. */
export type Outcome<T> = T | Promise<T>;
