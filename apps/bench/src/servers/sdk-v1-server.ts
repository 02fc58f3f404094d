// The workload on the official SDK v1 (@modelcontextprotocol/sdk 1.32.2), as its documentation writes a server:
// McpServer + registerTool with zod shapes for input and output, served by StdioServerTransport.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { sdkV1WorkloadServer } from './sdk-v1-workload.js';

const server = sdkV1WorkloadServer('bench-sdk-v1');

// No top-level await: the cold-start rows run this bundled as CommonJS (scripts/bundle-bin.mjs --code-cache).
void server.connect(new StdioServerTransport());
