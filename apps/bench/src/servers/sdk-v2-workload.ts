// The workload's tools on the official SDK v2 (2.4.0), zod object schemas defined once (outside the factory, as the
// SDK recommends for servers built per session or per request). The stdio and HTTP bench servers build the same server.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CONJUGATE_DESCRIPTION, conjugate, conjugateResult, ECHO_DESCRIPTION, PERSONS, TENSES, VERBS } from '../workload.js';

const echoInput = z.object({ text: z.string() });
const conjugateInput = z.object({ verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS) });
const conjugateOutput = z.object({ verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS), form: z.string() });

/** An SDK v2 McpServer named `name` with the tools (the SDK's own examples build one per session or per request). */
export function sdkV2WorkloadServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
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
}
