// The workload on the official SDK v2 (@modelcontextprotocol/server 2.4.0), as its documentation writes a stdio
// server: `serveStdio` with a factory that builds an McpServer and registers the tools with zod object schemas.
// serveStdio serves both eras from the same process (the opening request selects one).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { CONJUGATE_DESCRIPTION, conjugate, conjugateResult, ECHO_DESCRIPTION, PERSONS, TENSES, VERBS } from '../workload.js';

const echoInput = z.object({ text: z.string() });
const conjugateInput = z.object({ verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS) });
const conjugateOutput = z.object({ verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS), form: z.string() });

serveStdio(() => {
  const server = new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: echoInput }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'conjugate',
    { description: CONJUGATE_DESCRIPTION, inputSchema: conjugateInput, outputSchema: conjugateOutput },
    async ({ verb, tense, person }) => {
      const row = conjugate(verb, tense, person);
      if (!row) throw new Error(`${verb} ${tense} ${person} is not in the table`);
      return conjugateResult(row);
    },
  );
  return server;
});
