// The mixed load that the client leg is checked beside: bounded by its own deadline, stopped at once by stop(), and
// honest about parts that did nothing. Only the light parts run here (a burner per core for two seconds at most, or
// until every burner burns).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BUSY_WITHOUT_A_ROUND, DISK_LOAD, groupCpuSeconds, idlePart, startMixedLoad } from './mixed-load.js';

/**
 * True when no live process is left in the group. Zombies do not count: killed children of the group's shell are
 * orphans, and where PID 1 does not reap (a container's plain entry process) they stay listed, doing nothing.
 */
function gone(group: number): boolean {
  const table = execFileSync('ps', ['-eo', 'pgid=,stat='], { encoding: 'utf8' });
  return !table.split('\n').some((line) => {
    const [pgid, stat] = line.trim().split(/\s+/);
    return Number(pgid) === group && stat !== undefined && !stat.startsWith('Z');
  });
}

describe('mixed load', () => {
  test('every part ends by itself at the deadline, even without stop()', async () => {
    const lines: string[] = [];
    const load = startMixedLoad({ seconds: 2, parts: ['cpu', 'processes'], log: (line) => lines.push(line) });
    await load.ended;
    const report = await load.stop();
    const cpu = report.parts.find((part) => part.part === 'cpu')!;
    // Each burner ran to the deadline and said so.
    expect(cpu).toMatchObject({ rounds: Math.max(1, availableParallelism()), stopped: 0, failed: 0 });
    expect(report.parts.find((part) => part.part === 'processes')!.rounds).toBeGreaterThan(0);
    expect(report.idle).toEqual([]);
    expect(report.groups.every(gone)).toBe(true);
    expect(lines.at(-1)).toMatch(/^mixed load stopped \(load [\d.]+ → [\d.]+\): cpu \d+ round\(s\); processes \d+ round\(s\)/);
  }, 60_000);

  test('stop() ends every process group at once, long before the deadline, and says which parts never finished a round', async () => {
    const load = startMixedLoad({ seconds: 600, parts: ['cpu', 'disk'], log: () => undefined });
    const report = await load.stop();
    await load.ended;
    expect(report.groups).toHaveLength(2);
    expect(report.groups.every(gone)).toBe(true);
    // Stopped before a burner started burning and before the first fsync'd write: neither part did its work.
    expect(report.parts.find((part) => part.part === 'cpu')).toMatchObject({ rounds: 0, stopped: 0 });
    expect(report.idle).toEqual(['cpu', 'disk']);
    // A second stop() is the same report, not a second kill.
    expect(await load.stop()).toBe(report);
  }, 60_000);

  test('burners stopped before their deadline count: each burned until the stop, and the stop line says so', async () => {
    const lines: string[] = [];
    let burning!: () => void;
    const allBurning = new Promise<void>((resolve) => (burning = resolve));
    const load = startMixedLoad({
      seconds: 20,
      parts: ['cpu'],
      log: (line) => {
        lines.push(line);
        if (/^mixed load: \d+ CPU burner\(s\) burning$/.test(line)) burning();
      },
    });
    // Bounded by the load's own deadline: burners that never say they burn fail the test then, not the runner.
    await Promise.race([allBurning, load.ended]);
    const report = await load.stop();
    const burners = Math.max(1, availableParallelism());
    expect(report.parts[0]).toMatchObject({ part: 'cpu', rounds: burners, stopped: burners, failed: 0 });
    expect(report.idle).toEqual([]);
    expect(lines.at(-1)).toMatch(new RegExp(`\\): cpu ${burners} round\\(s\\) \\(${burners} stopped before the deadline\\)$`));
  }, 120_000);

  test('the disk part rewrites a small ring of files at a bounded pace instead of filling the disk', async () => {
    const load = startMixedLoad({ seconds: 2, parts: ['disk'], log: () => undefined });
    await load.ended;
    const files = readdirSync(load.directory).filter((name) => name.startsWith('disk-'));
    const sizes = files.map((name) => statSync(join(load.directory, name)).size);
    const report = await load.stop();
    const disk = report.parts[0]!;
    expect(disk.rounds).toBeGreaterThan(0);
    // One round per pause at most, however fast the disk: the deadline is at most 3 s away (whole seconds).
    expect(disk.rounds + disk.failed).toBeLessThanOrEqual(Math.ceil(3 / DISK_LOAD.pauseSeconds) + 1);
    // Overwritten in place: never more files than the ring, each one block.
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(DISK_LOAD.files);
    expect(sizes.every((size) => size === DISK_LOAD.blockMb * 1024 * 1024)).toBe(true);
    expect(existsSync(load.directory)).toBe(false);
  }, 60_000);
});

describe('a part that completed no round', () => {
  test('counts as load when its round kept the CPU busy, as idle when it did not', () => {
    // The CI case: a tsc build still in its first round when a 40 s leg ended, 25 CPU seconds in.
    expect(idlePart({ rounds: 0, cpuSeconds: 25 }, 40)).toBe(false);
    expect(idlePart({ rounds: 0, cpuSeconds: 3.9 }, 40)).toBe(true);
    expect(idlePart({ rounds: 0, cpuSeconds: 0.4 }, 2)).toBe(true);
    expect(idlePart({ rounds: 0, cpuSeconds: undefined }, 40)).toBe(true);
    expect(idlePart({ rounds: 2, cpuSeconds: undefined }, 40)).toBe(false);
  });

  test("a process group's CPU: its live members and the children its shell reaped", async () => {
    // The first node burns 1.2 s of CPU and ends (reaped by the shell: its cutime); the second burns 0.6 s, says so
    // and stays (a live member).
    const burn = (seconds: number, then: string): string =>
      `"${process.execPath}" -e 'const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) < ${seconds * 1e6}) {} ${then}'`;
    const child = spawn('sh', ['-c', `${burn(1.2, '')}; ${burn(0.6, 'console.log("ready"); setInterval(() => {}, 1000);')}`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        child.once('exit', () => reject(new Error('the group ended before it was ready')));
      });
      const cpu = groupCpuSeconds(child.pid!);
      expect(cpu).toBeGreaterThanOrEqual(1.7);
      expect(cpu).toBeLessThan(60);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
    await new Promise((resolve) => child.once('close', resolve));
  }, 60_000);

  test('a build stopped in its first round, its CPU busy meanwhile, is load, and the stop line says so', async () => {
    const lines: string[] = [];
    const load = startMixedLoad({ seconds: 120, parts: ['build'], log: (line) => lines.push(line) });
    // Waits until the group has used the CPU a part needs without a round (bounded by the load's own deadline).
    let ended = false;
    void load.ended.then(() => (ended = true));
    while (!ended && (groupCpuSeconds(load.groups[0]!) ?? 0) < BUSY_WITHOUT_A_ROUND.seconds + 0.5)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const report = await load.stop();
    const build = report.parts[0]!;
    expect(build.rounds).toBe(0);
    expect(build.cpuSeconds).toBeGreaterThanOrEqual(BUSY_WITHOUT_A_ROUND.seconds);
    expect(report.idle).toEqual([]);
    expect(lines.at(-1)).toMatch(/\): build 0 round\(s\) \(one in progress, [\d.]+ CPU s\)$/);
  }, 180_000);
});
