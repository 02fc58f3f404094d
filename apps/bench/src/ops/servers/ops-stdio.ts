// The overhead bench's stdio server: the workload's wiremcp server with the variant named by argv[2] switched on
// (see ops-variants.ts), over this process's stdio.
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
import { opsWorkloadServer, parseVariant } from '../ops-variants.js';

const server = await opsWorkloadServer('bench-ops', parseVariant(process.argv[2]));
await server.connect(createProcessStdioTransport());
