// The workload on wiremcp over WebSocket, as its README shows: one McpServer served by `listenWebSocket` of
// `@wiremcp/transport-websocket/node` with the defaults (loopback, every limit, keep-alive pings).
import { listenWebSocket } from '@wiremcp/transport-websocket/node';
import { workloadServer } from '../../servers/wiremcp-workload.js';
import { announce } from './ready.js';

const server = workloadServer('bench-wiremcp-ws');

const listening = await listenWebSocket(server);
announce(listening.server);
