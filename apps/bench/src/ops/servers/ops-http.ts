// The overhead bench's HTTP server: the workload's wiremcp server with the variant named by argv[2] switched on
// (see ops-variants.ts), behind `createHttpHandler` with its defaults, announced as every HTTP bench server is.
import { createHttpHandler } from '@wiremcp/transport-http';
import { listen } from '@wiremcp/transport-http/node';
import { announce } from '../../http/servers/ready.js';
import { opsWorkloadServer, parseVariant } from '../ops-variants.js';

const server = await opsWorkloadServer('bench-ops-http', parseVariant(process.argv[2]));
announce((await listen(createHttpHandler(server))).server);
