// The workload on wiremcp over HTTP, as its README shows: one McpServer, `createHttpHandler` with the defaults (both
// eras on /mcp, resumable streams, every limit), served by `listen` of `@wiremcp/transport-http/node`.
import { McpServer } from '@wiremcp/server';
import { createHttpHandler } from '@wiremcp/transport-http';
import { listen } from '@wiremcp/transport-http/node';
import {
  CONJUGATE_DESCRIPTION,
  CONJUGATE_INPUT_SCHEMA,
  CONJUGATE_OUTPUT_SCHEMA,
  conjugate,
  conjugateResult,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
  type ConjugateArgs,
} from '../../workload.js';
import { announce } from './ready.js';

const server = new McpServer({ name: 'bench-wiremcp-http', version: '1.0.0' });
server.registerTool({ name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA }, ({ text }: { text: string }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool(
  { name: 'conjugate', description: CONJUGATE_DESCRIPTION, inputSchema: CONJUGATE_INPUT_SCHEMA, outputSchema: CONJUGATE_OUTPUT_SCHEMA },
  ({ verb, tense, person }: ConjugateArgs) => {
    const row = conjugate(verb, tense, person);
    if (!row) throw new Error(`${verb} ${tense} ${person} is not in the table`);
    return conjugateResult(row);
  },
);

const listening = await listen(createHttpHandler(server));
announce(listening.server);
