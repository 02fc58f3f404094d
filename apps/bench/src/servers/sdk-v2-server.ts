// The workload on the official SDK v2 (@modelcontextprotocol/server 2.4.0), as its documentation writes a stdio
// server: `serveStdio` with a factory that builds an McpServer and registers the tools with zod object schemas.
// serveStdio serves both eras from the same process (the opening request selects one).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { sdkV2WorkloadServer } from './sdk-v2-workload.js';

serveStdio(() => sdkV2WorkloadServer('bench-sdk-v2'));
