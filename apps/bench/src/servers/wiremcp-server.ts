// The workload on wiremcp, written as its README shows: an McpServer with two tools (JSON Schema input, and an
// outputSchema for conjugate) served over this process's stdio. Both eras on the same process: the client's
// first request (initialize, or a request carrying the 2026-07-28 _meta) decides.
import { McpServer } from '@wiremcp/server';
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
import {
  CONJUGATE_DESCRIPTION,
  CONJUGATE_INPUT_SCHEMA,
  CONJUGATE_OUTPUT_SCHEMA,
  conjugate,
  conjugateResult,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
  type ConjugateArgs,
} from '../workload.js';

const server = new McpServer({ name: 'bench-wiremcp', version: '1.0.0' });

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

await server.connect(createProcessStdioTransport());
