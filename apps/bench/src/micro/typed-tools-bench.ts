// Micro-benchmark of typed authoring: does registering a tool with a typed schema cost anything per call? Three
// McpServers with the workload's two tools, each driven in this process by an McpClient over the in-memory linked
// pair (messages serialised through JSON): JSON Schema held in plain `Record`-typed values with annotated
// handlers (the untyped registration), the same JSON Schema as `as const` literals with inferred handler types,
// and zod 4 validators (Standard Schema: listed through zod's JSON Schema, checked by zod's own `validate` instead
// of the compiled JSON Schema validator). CPU µs per call (process.cpuUsage, client and server together), 64 calls
// in flight, interleaved repetitions; ratios to the untyped registration within each repetition. Not a test.
// Run from the repository root after a build:  node apps/bench/dist/micro/typed-tools-bench.js
import { pathToFileURL } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { McpServer } from '@wiremcp/server';
import { z } from 'zod';
import { median } from '../stats.js';
import {
  argumentsFor,
  checkResult,
  CONJUGATE_INPUT_SCHEMA,
  CONJUGATE_OUTPUT_SCHEMA,
  conjugate,
  conjugateResult,
  ECHO_INPUT_SCHEMA,
  PERSONS,
  TENSES,
  VERBS,
  type ConjugateArgs,
  type ToolName,
} from '../workload.js';

/** One registration style: median CPU µs per call of each tool, and the median ratio to the untyped style. */
export interface TypedToolsResult {
  name: string;
  echoUs: number;
  conjugateUs: number;
  echoRatio: number;
  conjugateRatio: number;
}

const CALLS = 4000;
const REPETITIONS = 7;
const IN_FLIGHT = 64;

function conjugated({ verb, tense, person }: ConjugateArgs): ReturnType<typeof conjugateResult> {
  const row = conjugate(verb, tense, person);
  if (!row) throw new Error(`${verb} ${tense} ${person} is not in the table`);
  return conjugateResult(row);
}

function untyped(): McpServer {
  const server = new McpServer({ name: 'untyped', version: '1.0.0' });
  // Copies typed as plain objects: nothing for the compiler to infer from.
  const copy = (schema: object): { type: 'object'; [keyword: string]: unknown } => JSON.parse(JSON.stringify(schema)) as { type: 'object' };
  server.registerTool({ name: 'echo', inputSchema: copy(ECHO_INPUT_SCHEMA) }, (args: Record<string, unknown>) => ({
    content: [{ type: 'text', text: String(args.text) }],
  }));
  server.registerTool(
    { name: 'conjugate', inputSchema: copy(CONJUGATE_INPUT_SCHEMA), outputSchema: copy(CONJUGATE_OUTPUT_SCHEMA) },
    (args: Record<string, unknown>) => conjugated(args as unknown as ConjugateArgs),
  );
  return server;
}

function literal(): McpServer {
  const server = new McpServer({ name: 'literal', version: '1.0.0' });
  server.registerTool({ name: 'echo', inputSchema: ECHO_INPUT_SCHEMA }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool({ name: 'conjugate', inputSchema: CONJUGATE_INPUT_SCHEMA, outputSchema: CONJUGATE_OUTPUT_SCHEMA }, (args) =>
    conjugated(args),
  );
  return server;
}

function zod(): McpServer {
  const server = new McpServer({ name: 'zod', version: '1.0.0' });
  const row = { verb: z.enum(VERBS), tense: z.enum(TENSES), person: z.enum(PERSONS) };
  server.registerTool({ name: 'echo', inputSchema: z.object({ text: z.string() }).strict() }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    { name: 'conjugate', inputSchema: z.object(row).strict(), outputSchema: z.object({ ...row, form: z.string() }).strict() },
    (args) => conjugated(args),
  );
  return server;
}

const STYLES: ReadonlyArray<{ name: string; make: () => McpServer }> = [
  { name: 'JSON Schema, untyped (plain objects, annotated handlers)', make: untyped },
  { name: 'JSON Schema literals (as const), inferred handler types', make: literal },
  { name: 'zod 4 (Standard Schema), inferred handler types', make: zod },
];

async function connect(make: () => McpServer): Promise<McpClient> {
  const [a, b] = createLinkedPair({ serialize: true });
  await make().connect(b);
  const client = new McpClient({ name: 'typed-bench', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(a);
  await client.listAllTools();
  return client;
}

/** CPU µs per call of `CALLS` calls of `tool`, `IN_FLIGHT` at a time, every answer checked. */
async function cpuPerCall(client: McpClient, tool: ToolName): Promise<number> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < CALLS) {
      const i = next++;
      const problem = checkResult(tool, i, await client.callTool(tool, argumentsFor(tool, i)));
      if (problem !== undefined) throw new Error(problem);
    }
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

/** Runs the comparison (a warm-up round, then interleaved repetitions) and returns the medians and ratios. */
export async function runTypedToolsBench(): Promise<TypedToolsResult[]> {
  const clients = await Promise.all(STYLES.map((style) => connect(style.make)));
  try {
    const samples = STYLES.map(() => ({ echo: [] as number[], conjugate: [] as number[] }));
    for (let rep = -1; rep < REPETITIONS; rep++) {
      for (let k = 0; k < STYLES.length; k++) {
        // Rotated, so that no style always runs first in a repetition.
        const s = (k + Math.max(rep, 0)) % STYLES.length;
        for (const tool of ['echo', 'conjugate'] as const) {
          const us = await cpuPerCall(clients[s]!, tool);
          if (rep >= 0) samples[s]![tool].push(us);
        }
      }
    }
    const ratio = (s: number, tool: 'echo' | 'conjugate'): number =>
      median(samples[s]![tool].map((us, rep) => us / samples[0]![tool][rep]!));
    return STYLES.map((style, s) => ({
      name: style.name,
      echoUs: median(samples[s]!.echo),
      conjugateUs: median(samples[s]!.conjugate),
      echoRatio: ratio(s, 'echo'),
      conjugateRatio: ratio(s, 'conjugate'),
    }));
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runTypedToolsBench();
  process.stdout.write(
    `| registration (${CALLS} calls × ${REPETITIONS}, ${IN_FLIGHT} in flight) | echo µs/call | conjugate µs/call |\n| --- | ---: | ---: |\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `| ${r.name} | ${r.echoUs.toFixed(1)} (${r.echoRatio.toFixed(2)}×) | ${r.conjugateUs.toFixed(1)} (${r.conjugateRatio.toFixed(2)}×) |\n`,
    );
  }
}
