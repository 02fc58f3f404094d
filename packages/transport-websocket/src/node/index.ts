// @wiremcp/transport-websocket/node: the Node server of MCP over WebSocket, on the ws library.
export {
  createWebSocketUpgrade,
  listenWebSocket,
  type ListenWebSocketOptions,
  type ListeningWebSocket,
  type UpgradeAuthentication,
  type WebSocketServable,
  type WebSocketServerOptions,
  type WebSocketUpgrade,
} from './listen-websocket.js';
export { refuseUpgrade, type UpgradePolicy } from './upgrade-checks.js';
