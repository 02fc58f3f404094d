// The workload on wiremcp, written as its README shows: an McpServer with two tools (JSON Schema input, and an
// outputSchema for conjugate) served over this process's stdio. Both eras on the same process: the client's
// first request (initialize, or a request carrying the 2026-07-28 _meta) decides.
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
import { workloadServer } from './wiremcp-workload.js';

const server = workloadServer('bench-wiremcp');

// `BENCH_WRITE_BATCH_BYTES`: the transport's `writeBatchBytes`, set by write-batches.ts (unset: the default).
const batch = process.env.BENCH_WRITE_BATCH_BYTES;

// No top-level await: the cold-start rows run this bundled as CommonJS (scripts/bundle-bin.mjs --code-cache).
void server.connect(createProcessStdioTransport(batch ? { writeBatchBytes: Number(batch) } : {}));
