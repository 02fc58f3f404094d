// The workload's two tools on the official SDK v1 (1.32.2), as its documentation writes them: registerTool with zod
// shapes for input and output. The stdio and HTTP bench servers build the same server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CONJUGATE_DESCRIPTION, conjugate, conjugateResult, ECHO_DESCRIPTION, PERSONS, TENSES, VERBS } from '../workload.js';

/** An SDK v1 McpServer named `name` with the `echo` and `conjugate` tools. */
export function sdkV1WorkloadServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'conjugate',
    {
      description: CONJUGATE_DESCRIPTION,
      inputSchema: { verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS) },
      outputSchema: { verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS), form: z.string() },
    },
    async ({ verb, tense, person }) => {
      const row = conjugate(verb, tense, person);
      if (!row) throw new Error(`${verb} ${tense} ${person} is not in the table`);
      return conjugateResult(row);
    },
  );
  return server;
}
