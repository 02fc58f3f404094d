// The workload on the official SDK v2 (2.4.0) over HTTP the way its documentation writes a server for both eras:
// `createMcpHandler(factory)` (2026-07-28 per request, and a stateless fallback for 2025-era traffic), a new
// McpServer per request from the factory, mounted on node:http with `toNodeHandler` of @modelcontextprotocol/node.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { announce } from './ready.js';
import { sdkV2WorkloadServer } from '../../servers/sdk-v2-workload.js';

const handler = createMcpHandler(() => sdkV2WorkloadServer('bench-sdk-v2-http'));
const http = createServer(toNodeHandler(handler));
http.listen(0, '127.0.0.1', () => announce(http));
