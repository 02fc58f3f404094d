// The workload on the official SDK v1 (@modelcontextprotocol/sdk 1.32.2), as its documentation writes a server:
// McpServer + registerTool with zod shapes for input and output, served by StdioServerTransport.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { CONJUGATE_DESCRIPTION, conjugate, conjugateResult, ECHO_DESCRIPTION, PERSONS, TENSES, VERBS } from '../workload.js';

const server = new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' });

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

await server.connect(new StdioServerTransport());
