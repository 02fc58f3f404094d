// The workload's two tools on a wiremcp McpServer, as its README writes them (JSON Schema input, an outputSchema for
// conjugate); the stdio and HTTP bench servers serve the same server.
import { McpServer, type ServerOptions } from '@wiremcp/server';
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

/** An McpServer named `name` with the `echo` and `conjugate` tools (and `options`, e.g. instrumentation). */
export function workloadServer(name: string, options?: ServerOptions): McpServer {
  const server = new McpServer({ name, version: '1.0.0' }, options);
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
  return server;
}
