// One row of one repetition, in a process of its own (so that clients never share a heap or a JIT with each
// other): cold starts, RSS after one session, then a load session with warm-up, sequential and pipelined phases.
// Started by the CLI with the job as argv[2]; prints one result line (`RESULT_PREFIX` + JSON) on stdout.
// The CLI runs it in its own process group and kills the group on timeout, so no server outlives it.
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ClientKind, ClientSession, SessionOpener } from './clients/session.js';
import { RESULT_PREFIX, type DriverJob, type DriverResult, type PhaseResult } from './job.js';
import type { ServerKind } from './plan.js';
import { processCpuMs, processRssKb, processWriteCalls } from './proc-stats.js';
import { percentileSorted } from './stats.js';
import { checkResult, TOOLS, type ToolName } from './workload.js';

async function opener(kind: ClientKind): Promise<SessionOpener> {
  switch (kind) {
    case 'raw':
      return (await import('./clients/raw-client.js')).openRawSession;
    case 'raw-each':
      return (await import('./clients/raw-client.js')).openRawEachSession;
    case 'wiremcp':
      return (await import('./clients/wiremcp-client.js')).openWiremcpSession;
    case 'sdk-v1':
      return (await import('./clients/sdk-v1-client.js')).openSdkV1Session;
    case 'sdk-v2':
      return (await import('./clients/sdk-v2-client.js')).openSdkV2Session;
  }
}

/**
 * The server process. `BENCH_SERVER_NODE_ARGS` (space-separated node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`)
 * is how the CLI's `--profile` reaches the server, whatever client spawns it. `bundled`: the server as one file
 * (`dist/bundle/<kind>/bin.js`, esbuild, as the bins ship), for cold starts; the load phases run the tsc output, so
 * that profiles still name the package each function comes from. The baseline is one file either way.
 */
function serverCommand(kind: ServerKind, bundled: boolean, job?: DriverJob): { command: string; args: string[] } {
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  if (job?.serverScript !== undefined)
    return { command: process.execPath, args: [...nodeArgs, job.serverScript, ...(job.serverArgs ?? [])] };
  const file = bundled && kind !== 'baseline' ? `./bundle/${kind}/bin.js` : `./servers/${kind}-server.js`;
  return { command: process.execPath, args: [...nodeArgs, fileURLToPath(new URL(file, import.meta.url))] };
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function callChecked(session: ClientSession, tool: ToolName, i: number): Promise<void> {
  const problem = checkResult(tool, i, await session.call(tool, i));
  if (problem !== undefined) throw new Error(problem);
}

async function sequential(session: ClientSession, tool: ToolName, calls: number, maxMs: number, job: DriverJob): Promise<PhaseResult> {
  const latencies: number[] = [];
  const serverBefore = processCpuMs(session.serverPid, job.clockTicksPerSec);
  const writesBefore = processWriteCalls(session.serverPid);
  const clientBefore = cpuMicros();
  const start = performance.now();
  const deadline = start + maxMs;
  let now = start;
  for (let i = 0; i < calls && now < deadline; i++) {
    const t0 = now;
    await callChecked(session, tool, i);
    now = performance.now();
    latencies.push(now - t0);
  }
  const elapsedMs = now - start;
  return finish(latencies.length, elapsedMs, serverBefore, writesBefore, clientBefore, session, job, latencies);
}

/** A pipelined phase: `inFlight` lanes of checked calls until `maxCalls` or `ms` (also used by write-batches.ts). */
export async function pipelined(
  session: ClientSession,
  tool: ToolName,
  inFlight: number,
  ms: number,
  maxCalls: number,
  job: Pick<DriverJob, 'clockTicksPerSec'>,
): Promise<PhaseResult> {
  let next = 0;
  let done = 0;
  let failure: unknown;
  const serverBefore = processCpuMs(session.serverPid, job.clockTicksPerSec);
  const writesBefore = processWriteCalls(session.serverPid);
  const clientBefore = cpuMicros();
  const start = performance.now();
  const deadline = start + ms;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < maxCalls && performance.now() < deadline) {
      const i = next++;
      try {
        await callChecked(session, tool, i);
      } catch (error) {
        failure ??= error;
        return;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const elapsedMs = performance.now() - start;
  if (failure !== undefined) throw failure;
  return finish(done, elapsedMs, serverBefore, writesBefore, clientBefore, session, job, undefined);
}

function finish(
  calls: number,
  elapsedMs: number,
  serverBefore: number | undefined,
  writesBefore: number | undefined,
  clientBefore: number,
  session: ClientSession,
  job: Pick<DriverJob, 'clockTicksPerSec'>,
  latencies: number[] | undefined,
): PhaseResult {
  const clientCpu = cpuMicros() - clientBefore;
  const serverAfter = processCpuMs(session.serverPid, job.clockTicksPerSec);
  const result: PhaseResult = {
    calls,
    elapsedMs,
    callsPerSec: (calls * 1000) / elapsedMs,
    clientCpuUsPerCall: clientCpu / calls,
  };
  if (serverBefore !== undefined && serverAfter !== undefined) result.serverCpuUsPerCall = ((serverAfter - serverBefore) * 1000) / calls;
  const writesAfter = processWriteCalls(session.serverPid);
  if (writesBefore !== undefined && writesAfter !== undefined) result.serverWritesPerCall = (writesAfter - writesBefore) / calls;
  if (latencies !== undefined) {
    const sorted = latencies.map((ms) => ms * 1000).sort((a, b) => a - b);
    result.p50Us = percentileSorted(sorted, 50);
    result.p99Us = percentileSorted(sorted, 99);
  }
  return result;
}

async function run(job: DriverJob): Promise<DriverResult> {
  const open = await opener(job.client);
  const w = job.workload;
  const result: DriverResult = { coldStartMs: [], phases: {} };

  if (job.cold) {
    for (let k = 0; k < w.coldStarts; k++) {
      const t0 = performance.now();
      const session = await open(serverCommand(job.server, true), job.era);
      result.coldStartMs.push(performance.now() - t0);
      try {
        if (k === 0) {
          // RSS after one session: the handshake, the tool list and one call of each tool.
          await session.listTools();
          for (const tool of TOOLS) await callChecked(session, tool, 0);
          result.rssKb = processRssKb(session.serverPid);
        }
      } finally {
        await session.close();
      }
    }
  }

  if (job.load) {
    const session = await open(serverCommand(job.server, false, job), job.era);
    try {
      await session.listTools();
      for (const tool of TOOLS) {
        for (let i = 0; i < w.warmUpCalls; i++) await callChecked(session, tool, i);
        await pipelined(session, tool, w.inFlight, w.warmUpPipeMs, w.pipeMaxCalls, job);
      }
      for (const tool of TOOLS) result.phases[`seq.${tool}`] = await sequential(session, tool, w.seqCalls, w.seqMaxMs, job);
      for (const tool of TOOLS) result.phases[`pipe.${tool}`] = await pipelined(session, tool, w.inFlight, w.pipeMs, w.pipeMaxCalls, job);
    } finally {
      await session.close();
    }
  }
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const job = JSON.parse(process.argv[2] ?? '{}') as DriverJob;
  try {
    const result = await run(job);
    process.stdout.write(RESULT_PREFIX + JSON.stringify(result) + '\n');
  } catch (error) {
    process.stderr.write(
      `driver ${job.client}/${job.server} (${job.era}) failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
