// Micro-benchmark of @wiremcp/jsonrpc: in-memory round trips per second between two Peers over the linked pair,
// sequential (one request at a time) and pipelined (64 in flight), with the pair serializing every message
// through JSON (as a wire would) and without. Median of several repetitions after a warm-up. Not a test.
// Run from the repository root after a build:  node apps/bench/dist/micro/jsonrpc-bench.js
import { pathToFileURL } from 'node:url';
import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';

/** One result: round trips per second of one scenario. */
export interface JsonRpcBenchResult {
  name: string;
  roundTripsPerSec: number;
}

const CALLS = 20_000;
const REPETITIONS = 7;
const PARAMS = { name: 'echo', arguments: { text: 'hello world' } };

async function pair(serialize: boolean): Promise<{ client: Peer; close: () => Promise<void> }> {
  const [a, b] = createLinkedPair({ serialize });
  const server = new Peer();
  server.setRequestHandler('tools/call', (params) => ({
    content: [{ type: 'text', text: (params?.arguments as { text: string }).text }],
  }));
  await server.connect(b);
  const client = new Peer();
  await client.connect(a);
  return { client, close: () => client.close() };
}

async function sequential(client: Peer): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await client.request('tools/call', PARAMS);
  return performance.now() - start;
}

async function pipelined(client: Peer, inFlight: number): Promise<number> {
  const start = performance.now();
  let sent = 0;
  const lane = async (): Promise<void> => {
    while (sent < CALLS) {
      sent++;
      await client.request('tools/call', PARAMS);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs every scenario (warm-up, then {@link REPETITIONS} timed runs) and returns the medians. */
export async function runJsonRpcBench(): Promise<JsonRpcBenchResult[]> {
  const scenarios: Array<{ name: string; serialize: boolean; run: (client: Peer) => Promise<number> }> = [
    { name: 'sequential, JSON-serialized', serialize: true, run: sequential },
    { name: 'pipelined ×64, JSON-serialized', serialize: true, run: (c) => pipelined(c, 64) },
    { name: 'sequential, object passing', serialize: false, run: sequential },
    { name: 'pipelined ×64, object passing', serialize: false, run: (c) => pipelined(c, 64) },
  ];
  const results: JsonRpcBenchResult[] = [];
  for (const scenario of scenarios) {
    const { client, close } = await pair(scenario.serialize);
    await scenario.run(client);
    const times: number[] = [];
    for (let i = 0; i < REPETITIONS; i++) times.push(await scenario.run(client));
    await close();
    results.push({ name: scenario.name, roundTripsPerSec: Math.round((CALLS / median(times)) * 1000) });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runJsonRpcBench();
  process.stdout.write(`| in-memory jsonrpc scenario (${CALLS} calls, median of ${REPETITIONS}) | round trips/s |\n| --- | --- |\n`);
  for (const r of results) process.stdout.write(`| ${r.name} | ${r.roundTripsPerSec.toLocaleString('en-US')} |\n`);
}
