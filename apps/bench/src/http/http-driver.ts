// One row of the HTTP bench in a process of its own: start the server (its own process; on the same CPU when the
// bench pins, affinity is inherited), warm up, then per tool a sequential phase and a concurrent phase, with the
// server's CPU time from /proc. Raw rows run 32 workers on keep-alive sockets (in the legacy era each worker has
// its own session); pair rows run one MCP client with 32 calls in flight. For sessionful raw rows, the heap one
// idle legacy session costs: sessions opened one by one, the server's heap compared after a full GC.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverEnvironment } from '../clients/raw-client.js';
import { RESULT_PREFIX, type PhaseResult } from '../job.js';
import { processCpuMs } from '../proc-stats.js';
import { percentileSorted } from '../stats.js';
import { checkResult, TOOLS, type ToolName } from '../workload.js';
import { HttpBenchClient } from './http-client.js';
import { HTTP_SERVER_FILES, type HttpDriverResult, type HttpJob } from './http-plan.js';
import { openPairClient } from './pair-clients.js';

interface Server {
  child: ChildProcessByStdio<null, Readable, null>;
  url: URL;
  /** The server's heap after a full GC, in bytes. */
  heap(): Promise<number>;
  /** The server's full (old-generation) collections so far; `undefined` when the server does not count them. */
  fullCollections(): Promise<number | undefined>;
}

/** `BENCH_SERVER_NODE_ARGS` (space-separated node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`) reach the server. */
async function startServer(file: string, scriptPath?: string, scriptArgs: readonly string[] = []): Promise<Server> {
  const script = scriptPath ?? fileURLToPath(new URL(`./servers/${file}`, import.meta.url));
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, '--expose-gc', script, ...scriptArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: serverEnvironment(),
  });
  const lines: string[] = [];
  let waiter: (() => void) | undefined;
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
    }
    waiter?.();
  });
  child.once('exit', () => waiter?.());
  const line = (prefix: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const index = lines.findIndex((l) => l.startsWith(prefix));
        waiter = undefined;
        if (index !== -1) resolve(lines.splice(index, 1)[0]!.slice(prefix.length));
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`the server ${file} exited`));
        else waiter = check;
      };
      check();
    });
  // `READY <port> gc`: the server counts its full collections (an older build's server says only `READY <port>`,
  // and SIGHUP would end it).
  const [port, feature] = (await line('READY ')).split(' ');
  return {
    child,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    heap: async () => {
      child.kill('SIGUSR2');
      return Number(await line('HEAP '));
    },
    fullCollections: async () => {
      if (feature !== 'gc') return undefined;
      child.kill('SIGHUP');
      return Number(await line('GC '));
    },
  };
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/** Makes the `i`-th call of `tool` on lane `lane`, rejecting when the answer is wrong. */
type Call = (tool: ToolName, i: number, lane: number) => Promise<void>;

interface Meter {
  pid: number;
  ticks: number;
}

function finish(
  calls: number,
  elapsedMs: number,
  cpu0: number | undefined,
  client0: NodeJS.CpuUsage,
  meter: Meter,
  sortedUs?: number[],
): PhaseResult {
  const cpu1 = processCpuMs(meter.pid, meter.ticks);
  const client = process.cpuUsage(client0);
  const result: PhaseResult = {
    calls,
    elapsedMs,
    callsPerSec: (calls * 1000) / elapsedMs,
    clientCpuUsPerCall: (client.user + client.system) / calls,
  };
  if (cpu0 !== undefined && cpu1 !== undefined) result.serverCpuUsPerCall = ((cpu1 - cpu0) * 1000) / calls;
  if (sortedUs !== undefined) {
    result.p50Us = percentileSorted(sortedUs, 50);
    result.p99Us = percentileSorted(sortedUs, 99);
  }
  return result;
}

/** Sequential calls of `tool` on lane 0 until `maxCalls` or `maxMs`. */
async function sequential(call: Call, tool: ToolName, maxCalls: number, maxMs: number, meter: Meter): Promise<PhaseResult> {
  const times: number[] = [];
  const cpu0 = processCpuMs(meter.pid, meter.ticks);
  const client0 = process.cpuUsage();
  const start = performance.now();
  let now = start;
  for (let i = 0; i < maxCalls && now - start < maxMs; i++) {
    const t0 = now;
    await call(tool, i, 0);
    now = performance.now();
    times.push((now - t0) * 1000);
  }
  return finish(
    times.length,
    now - start,
    cpu0,
    client0,
    meter,
    times.sort((a, b) => a - b),
  );
}

/** `lanes` loops calling `tool` concurrently until the calls or the time run out. */
async function concurrent(call: Call, tool: ToolName, lanes: number, maxCalls: number, maxMs: number, meter: Meter): Promise<PhaseResult> {
  const cpu0 = processCpuMs(meter.pid, meter.ticks);
  const client0 = process.cpuUsage();
  const start = performance.now();
  let issued = 0;
  const lane = async (index: number): Promise<void> => {
    while (issued < maxCalls && performance.now() - start < maxMs) await call(tool, issued++, index);
  };
  await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
  return finish(issued, performance.now() - start, cpu0, client0, meter);
}

/** The caller of a row: the raw client (one session per lane in the legacy era) or an MCP client. */
async function caller(job: HttpJob, url: URL): Promise<{ call: Call; raw: HttpBenchClient | undefined; close(): Promise<void> }> {
  const lanes = job.workload.concurrency;
  if (job.client === 'raw') {
    const raw = new HttpBenchClient(url, job.era, lanes);
    const sessions: Array<string | undefined> = [];
    for (let i = 0; i < lanes; i++) sessions.push(job.era === 'legacy' ? await raw.openSession() : undefined);
    return { call: (tool, i, lane) => raw.call(tool, i, sessions[lane]), raw, close: async () => raw.close() };
  }
  const client = await openPairClient(job.client, url, job.era);
  const call: Call = async (tool, i) => {
    const problem = checkResult(tool, i, await client.call(tool, i));
    if (problem !== undefined) throw new Error(problem);
  };
  return { call, raw: undefined, close: () => client.close() };
}

async function run(job: HttpJob): Promise<HttpDriverResult> {
  const server = await startServer(HTTP_SERVER_FILES[job.server], job.serverScript, job.serverArgs);
  const w = job.workload;
  const meter: Meter = { pid: server.child.pid!, ticks: job.clockTicksPerSec };
  const result: HttpDriverResult = { phases: {} };
  try {
    const c = await caller(job, server.url);
    try {
      for (const tool of TOOLS) {
        for (let i = 0; i < w.warmUpCalls; i++) await c.call(tool, i, 0);
        await concurrent(c.call, tool, w.concurrency, Number.POSITIVE_INFINITY, w.warmUpConcMs, meter);
      }
      const collections0 = await server.fullCollections();
      for (const tool of TOOLS) {
        result.phases[`seq.${tool}`] = await sequential(c.call, tool, w.seqCalls, w.seqMaxMs, meter);
        result.phases[`conc.${tool}`] = await concurrent(c.call, tool, w.concurrency, w.concMaxCalls, w.concMs, meter);
      }
      const collections1 = await server.fullCollections();
      if (collections0 !== undefined && collections1 !== undefined) result.fullCollections = collections1 - collections0;
      result.measuredCalls = Object.values(result.phases).reduce((sum, phase) => sum + phase.calls, 0);
      if (job.heap && c.raw !== undefined) {
        const before = await server.heap();
        for (let i = 0; i < w.heapSessions; i++) await c.raw.openSession();
        const after = await server.heap();
        result.heapPerSessionBytes = (after - before) / w.heapSessions;
      }
    } finally {
      await c.close();
    }
  } finally {
    await stopServer(server);
  }
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const job = JSON.parse(process.argv[2] ?? '{}') as HttpJob;
  try {
    const result = await run(job);
    process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
    // Keep-alive sockets of the SDK clients may hold the loop open.
    process.exit(0);
  } catch (error) {
    process.stderr.write(
      `http driver ${job.client}/${job.server} (${job.era}) failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  }
}
