/**
 * A bounded mixed load, the kind a shared CI machine puts beside a test run: a package install into a scratch
 * directory, a TypeScript build, batches of short-lived processes, CPU-bound processes and disk writes flushed with
 * fsync. It is how the official suite's client leg is checked on a busy machine (`conformance:official --under-load`).
 * The disk part is bounded in space and volume too (see {@link DISK_LOAD}): the journal and the device are kept busy
 * with a steady stream of fsyncs, not filled.
 *
 * Each part is a shell loop in its own process group that stops by itself at the deadline, so the load is bounded
 * even if this process is killed; `stop()` ends every group at once (SIGKILL to the group: pnpm, tsc and their
 * children too) and removes the scratch directory. Each part reports its rounds and, where `/proc` says, the CPU its
 * process group used; the load names the parts that were idle (see {@link idlePart}): a load that did not run is not
 * a load a result was obtained under.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';

/** What to start. */
export interface MixedLoadOptions {
  /** Hard limit in seconds: every part stops by itself then, whether or not `stop()` is called. */
  readonly seconds: number;
  /** Progress lines. */
  readonly log: (line: string) => void;
  /** Only these parts (default all of {@link MIXED_LOAD_PARTS}). */
  readonly parts?: readonly MixedLoadPart[];
}

/** The parts of the load. */
export const MIXED_LOAD_PARTS = ['install', 'build', 'processes', 'cpu', 'disk'] as const;
/** One part of the load. */
export type MixedLoadPart = (typeof MIXED_LOAD_PARTS)[number];

/** What a part did. */
export interface MixedLoadPartReport {
  readonly part: MixedLoadPart;
  /**
   * Rounds that completed. A round of `cpu` is one burner that burned until the deadline or until it was stopped:
   * the burners run for the whole load, so a load stopped early still counts each one that was burning.
   */
  readonly rounds: number;
  /** Of `cpu`'s rounds, the burners that were still burning when the load was stopped (0 for the other parts). */
  readonly stopped: number;
  /** Rounds whose command failed (counted apart: they loaded the machine less than a good round). */
  readonly failed: number;
  /**
   * CPU seconds the part's process group used until the stop (its live processes and the children they reaped), or
   * undefined where `/proc` cannot say (not Linux, or the group had ended).
   */
  readonly cpuSeconds: number | undefined;
  /** The part's last stderr, bounded. */
  readonly stderr: string;
}

/** A running load. */
export interface MixedLoad {
  /** Stops every part (idempotent) and says what each did. */
  stop(): Promise<MixedLoadReport>;
  /** Settles when every part's loop has ended: at the deadline by itself, or at `stop()`. */
  readonly ended: Promise<void>;
  /** The scratch directory the parts work in (the install's project, the disk part's files); `stop()` removes it. */
  readonly directory: string;
  /** The parts' process groups, in the order of the parts. */
  readonly groups: readonly number[];
}

/** What the load did. */
export interface MixedLoadReport {
  readonly parts: readonly MixedLoadPartReport[];
  /** Parts that were idle (see {@link idlePart}): the load was lighter than asked. */
  readonly idle: readonly MixedLoadPart[];
  /** One-minute load average at the start and at the stop. */
  readonly loadAverage: readonly [number, number];
  readonly seconds: number;
  /** The parts' process groups (all ended by the time the report is made). */
  readonly groups: readonly number[];
}

/**
 * The disk part: `blockMb` written and fsync'd per round into a ring of `files` files overwritten in place (at most
 * files × blockMb on disk), a pause between rounds (at most 8 MB/s: 4 fsyncs a second), and at most `capMb` per run,
 * so a 600 s run writes at most 4.7 GB — a round of 128 MB written back to back had written 80–140 GB.
 */
export const DISK_LOAD = { blockMb: 2, files: 4, pauseSeconds: 0.25, capMb: 6144 } as const;

/** Packages the workspace already has in its pnpm store: the install is a real one, without the network's pace. */
const INSTALLED = { ajv: '8.20.0', yaml: '2.9.1', zod: '4.6.7', esbuild: '0.28.2' };

/** What burner `i` prints once it burns (`burning i`): a round when the load stops it before its deadline. */
const BURNING = 'burning';

/** A loop that runs `command` until the deadline, printing `ok` or `fail` per round. */
function loop(end: number, command: string): string {
  return `while [ "$(date +%s)" -lt ${end} ]; do if ${command}; then echo ok; else echo fail; fi; done`;
}

function scripts(end: number, burners: number): Record<MixedLoadPart, string> {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const burn = (i: number): string => `process.stdout.write("${BURNING} ${i}\\n"); const end = ${end * 1000}; while (Date.now() < end) {}`;
  return {
    install: loop(
      end,
      `{ rm -rf node_modules && npx -y pnpm@10.34.8 install --prefer-offline --ignore-scripts --lockfile=false --reporter=silent >/dev/null; }`,
    ),
    build: loop(end, `"${process.execPath}" "${tsc}" -p "${join(REPO_ROOT, 'apps', 'conformance', 'tsconfig.build.json')}" --noEmit`),
    processes: loop(end, `{ ${Array.from({ length: 8 }, () => `"${process.execPath}" -e 0 &`).join(' ')} wait; }`),
    // One burner per core, each to the deadline: burner i says `burning i` once it burns, and `ok i` or `fail i` when
    // it ends by itself. (Not under `timeout`: it makes its own process group, which the stop would then miss.)
    cpu: `${Array.from(
      { length: burners },
      (_, i) => `{ if "${process.execPath}" -e '${burn(i)}'; then echo "ok ${i}"; else echo "fail ${i}"; fi; } &`,
    ).join(' ')} wait`,
    disk:
      `n=0; while [ "$(date +%s)" -lt ${end} ] && [ $n -lt ${Math.floor(DISK_LOAD.capMb / DISK_LOAD.blockMb)} ]; do ` +
      `if dd if=/dev/zero of=disk-$((n % ${DISK_LOAD.files})).bin bs=1M count=${DISK_LOAD.blockMb} conv=notrunc,fsync status=none; ` +
      `then echo ok; else echo fail; fi; n=$((n + 1)); sleep ${DISK_LOAD.pauseSeconds}; done`,
  };
}

/** CPU seconds a part must have used, with no round completed, to count as load: 1 s, and a tenth of the time. */
export const BUSY_WITHOUT_A_ROUND = { seconds: 1, share: 0.1 } as const;

/**
 * Whether a part was idle: it completed no round and did not keep the CPU busy meanwhile. A round can outlast a
 * short leg (a `tsc` build on a slow machine takes longer than a quick client leg) and still load the machine the
 * whole time; a part that completed nothing and used less than {@link BUSY_WITHOUT_A_ROUND} (or whose CPU `/proc`
 * cannot tell) did not.
 */
export function idlePart(part: { rounds: number; cpuSeconds: number | undefined }, elapsedSeconds: number): boolean {
  if (part.rounds > 0) return false;
  if (part.cpuSeconds === undefined) return true;
  return part.cpuSeconds < Math.max(BUSY_WITHOUT_A_ROUND.seconds, BUSY_WITHOUT_A_ROUND.share * elapsedSeconds);
}

let ticksPerSecond: number | undefined;

/**
 * CPU seconds used by the live processes of a process group and by the children they reaped: the sum of utime,
 * stime, cutime and cstime over `/proc/<pid>/stat` of the group's members. A finished round's processes are in
 * their shell's cutime once reaped; a running round's are live members. Undefined where `/proc` is missing or no
 * member is left.
 */
export function groupCpuSeconds(group: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  ticksPerSecond ??= clockTicks();
  let ticks = 0;
  let members = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Ended meanwhile.
    }
    // The command name is in parentheses and may hold anything: the fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== group) continue; // field 5, pgrp
    members++;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]); // fields 14–17
  }
  return members === 0 ? undefined : ticks / ticksPerSecond;
}

function clockTicks(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100; // USER_HZ on every Linux that Node runs on.
  }
}

/** Starts the load; it runs until `stop()` or `seconds`, whichever comes first. */
export function startMixedLoad(options: MixedLoadOptions): MixedLoad {
  const scratch = mkdtempSync(join(tmpdir(), 'wiremcp-mixed-load-'));
  writeFileSync(
    join(scratch, 'package.json'),
    `${JSON.stringify({ name: 'mixed-load', private: true, dependencies: INSTALLED }, null, 2)}\n`,
  );
  const end = Math.ceil(Date.now() / 1000) + options.seconds;
  const started = loadavg()[0]!;
  const startedAt = Date.now();
  const burners = Math.max(1, availableParallelism());
  const all = scripts(end, burners);
  const running = (options.parts ?? MIXED_LOAD_PARTS).map((part) => {
    const child = spawn('sh', ['-c', all[part]], { cwd: scratch, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const state = {
      part,
      child,
      rounds: 0,
      failed: 0,
      // The cpu part's burners (by number) that started burning, and those that ended by themselves.
      burning: new Set<string>(),
      ended: new Set<string>(),
      stderr: '',
      exited: new Promise<void>((done) => child.once('close', () => done())),
    };
    let pending = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const [word, burner] = line.split(' ');
        if (burner !== undefined) (word === BURNING ? state.burning : state.ended).add(burner);
        if (word === 'ok') state.rounds++;
        else if (word === 'fail') state.failed++;
        else if (word === BURNING && state.burning.size === burners) options.log(`mixed load: ${burners} CPU burner(s) burning`);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (state.stderr = (state.stderr + chunk).slice(-2_000)));
    child.once('error', (error) => (state.stderr += `\n${error.message}`));
    return state;
  });
  options.log(
    `mixed load started for at most ${options.seconds} s: ${running.map((state) => state.part).join(', ')} (load ${started.toFixed(1)})`,
  );
  // Should this process end without stop(), the groups die with it (process.kill is synchronous, fit for 'exit').
  const killAll = (): void => running.forEach((state) => killGroup(state.child));
  process.once('exit', killAll);
  const groups = running.flatMap((state) => (state.child.pid === undefined ? [] : [state.child.pid]));
  let report: Promise<MixedLoadReport> | undefined;
  return {
    directory: scratch,
    groups,
    ended: Promise.all(running.map((state) => state.exited)).then(() => undefined),
    stop() {
      report ??= (async () => {
        const stopped = loadavg()[0]!;
        const elapsed = (Date.now() - startedAt) / 1000;
        // Sampled before the kill: a killed group's time is gone with it.
        const cpu = running.map((state) => (state.child.pid === undefined ? undefined : groupCpuSeconds(state.child.pid)));
        killAll();
        process.off('exit', killAll);
        await Promise.all(running.map((state) => state.exited));
        rmSync(scratch, { recursive: true, force: true });
        const parts = running.map(({ part, rounds, failed, burning, ended, stderr }, index) => {
          // A burner that was burning and had not ended by itself was stopped here: it burned until now.
          const stopped = [...burning].filter((burner) => !ended.has(burner)).length;
          return { part, rounds: rounds + stopped, stopped, failed, cpuSeconds: cpu[index], stderr: stderr.trim() };
        });
        const result: MixedLoadReport = {
          parts,
          idle: parts.filter((entry) => idlePart(entry, elapsed)).map((entry) => entry.part),
          loadAverage: [started, stopped],
          seconds: options.seconds,
          groups,
        };
        options.log(
          `mixed load stopped (load ${started.toFixed(1)} → ${stopped.toFixed(1)}): ` +
            parts
              .map(
                (entry) =>
                  `${entry.part} ${entry.rounds} round(s)${entry.failed ? `, ${entry.failed} failed` : ''}` +
                  (entry.part === 'disk' ? ` (${entry.rounds * DISK_LOAD.blockMb} MB written and fsync'd)` : '') +
                  (entry.stopped ? ` (${entry.stopped} stopped before the deadline)` : '') +
                  (entry.rounds === 0 && entry.cpuSeconds !== undefined ? ` (one in progress, ${entry.cpuSeconds.toFixed(1)} CPU s)` : ''),
              )
              .join('; '),
        );
        return result;
      })();
      return report;
    },
  };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
