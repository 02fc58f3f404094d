// @wiremcp/transport-websocket: MCP over WebSocket (subprotocol `mcp`, one JSON-RPC message per text frame). The
// client and the per-connection transport are web-standard; the Node server (on `ws`) is at `./node`.
export {
  SocketTransport,
  MCP_SUBPROTOCOL,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  type SocketLimits,
  type WebSocketLike,
} from './socket-transport.js';
export { WebSocketClientTransport, type WebSocketClientTransportOptions, type WebSocketConstructor } from './websocket-client-transport.js';
