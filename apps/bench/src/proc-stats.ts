// CPU time and memory of another process, read from Linux /proc (the bench machine's OS). Elsewhere the readers
// return undefined and the table says "n/a".
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (user + system) the process has used so far, in ms, from `/proc/<pid>/stat` (all its threads, GC and
 * libuv included). The resolution is one clock tick (10 ms at CLK_TCK 100): measure phases long enough for that.
 */
export function processCpuMs(pid: number, clockTicksPerSec: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may contain spaces: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1000) / clockTicksPerSec;
}

/**
 * CPU time the process's threads have run so far, in ms with ns resolution: the sum of the first field of
 * `/proc/<pid>/task/<tid>/schedstat` over the threads alive now (a thread that already ended is not counted; at a
 * cold start Node's threads all live on). For short phases where one clock tick (`processCpuMs`) is too coarse.
 */
export function processCpuPreciseMs(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const runNs = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      if (!Number.isFinite(runNs)) return undefined;
      ns += runNs;
    }
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** Write system calls the process has made so far (`syscw` of `/proc/<pid>/io`; readable by its owner or root). */
export function processWriteCalls(pid: number): number | undefined {
  try {
    const match = /^syscw:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of the process in KiB (`VmRSS` of `/proc/<pid>/status`). */
export function processRssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
