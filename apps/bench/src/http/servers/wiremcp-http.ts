// The workload on wiremcp over HTTP, as its README shows: one McpServer, `createHttpHandler` with the defaults (both
// eras on /mcp, resumable streams, every limit), served by `listen` of `@wiremcp/transport-http/node`.
import { createHttpHandler } from '@wiremcp/transport-http';
import { listen } from '@wiremcp/transport-http/node';
import { workloadServer } from '../../servers/wiremcp-workload.js';
import { announce } from './ready.js';

const server = workloadServer('bench-wiremcp-http');

const listening = await listen(createHttpHandler(server));
announce(listening.server);
