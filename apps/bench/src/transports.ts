#!/usr/bin/env node
/**
 * `node apps/bench/dist/transports.js [--repetitions 3] [--seconds 2]`: the wiremcp pair (McpClient ↔ McpServer,
 * each in its own process, the `echo` tool) over stdio, Streamable HTTP (`nodeFetch()`) and WebSocket, side by side
 * in one run: the transports interleaved in every repetition, each phase after 1 s of warm-up, 32 calls in flight
 * (pipelined on one connection), in both eras. Prints medians of calls/s and the ratio to stdio; processes are not
 * pinned to CPUs. Bounded: every phase ends after `--seconds`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { nodeFetch } from '@wiremcp/transport-http/node';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { WebSocketClientTransport } from '@wiremcp/transport-websocket';

const here = dirname(fileURLToPath(import.meta.url));
const TRANSPORTS = ['stdio', 'http', 'websocket'] as const;
type TransportName = (typeof TRANSPORTS)[number];
const ERAS = ['legacy', 'modern'] as const;
const IN_FLIGHT = 32;

function startListening(script: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(here, 'http', 'servers', script)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      const port = /READY (\d+)/.exec(text)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
  });
}

async function connectPair(
  transport: TransportName,
  era: (typeof ERAS)[number],
): Promise<{ client: McpClient; stop: () => Promise<void> }> {
  const client = new McpClient({ name: 'bench-transports', version: '1.0.0' }, { era });
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(here, 'servers', 'wiremcp-server.js')] }));
    return { client, stop: () => client.close() };
  }
  const { child, port } = await startListening(transport === 'http' ? 'wiremcp-http.js' : 'wiremcp-ws.js');
  const fetch = nodeFetch();
  await client.connect(
    transport === 'http'
      ? httpTransportFactory(`http://127.0.0.1:${port}/mcp`, { fetch, standaloneStream: false })
      : new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`),
  );
  return {
    client,
    stop: async () => {
      await client.close();
      fetch.close();
      child.kill('SIGTERM');
    },
  };
}

/** Calls/s with IN_FLIGHT workers calling `echo` one after another for `ms`. */
async function phase(client: McpClient, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let calls = 0;
  const worker = async (): Promise<void> => {
    while (Date.now() < end) {
      await client.callTool('echo', { text: 'hello' });
      calls += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return calls / ((performance.now() - started) / 1000);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const { values } = parseArgs({ options: { repetitions: { type: 'string', default: '3' }, seconds: { type: 'string', default: '2' } } });
const repetitions = Number(values.repetitions);
const ms = Number(values.seconds) * 1000;
const results = new Map<string, number[]>();
for (let rep = 1; rep <= repetitions; rep += 1) {
  for (const era of ERAS) {
    for (const transport of TRANSPORTS) {
      const pair = await connectPair(transport, era);
      try {
        await phase(pair.client, 1000);
        const rate = await phase(pair.client, ms);
        const key = `${era} ${transport}`;
        results.set(key, [...(results.get(key) ?? []), rate]);
        process.stderr.write(`[transports] repetition ${rep}: ${key} ${rate.toFixed(0)} calls/s\n`);
      } finally {
        await pair.stop();
      }
    }
  }
}
process.stdout.write(`| era | transport | calls/s (median of ${repetitions}) | ratio to stdio |\n| --- | --- | ---: | ---: |\n`);
for (const era of ERAS) {
  const stdio = median(results.get(`${era} stdio`)!);
  for (const transport of TRANSPORTS) {
    const rate = median(results.get(`${era} ${transport}`)!);
    process.stdout.write(
      `| ${era === 'legacy' ? '2025-11-25' : '2026-07-28'} | ${transport} | ${rate.toFixed(0)} | ${(rate / stdio).toFixed(2)}× |\n`,
    );
  }
}
process.exit(0);
