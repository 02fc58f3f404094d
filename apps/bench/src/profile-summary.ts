// Reads a V8 .cpuprofile (from `node --cpu-prof`) and prints where the busy time went: self time by function and
// by origin (wiremcp package, SDK, zod, ajv, Node core, V8/GC), as percentages of non-idle samples.
//   node apps/bench/dist/profile-summary.js <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function comes from, for the per-origin totals. */
export function originOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'V8: GC';
    if (functionName === '(program)') return 'V8: program';
    if (functionName === '(idle)') return 'idle';
    return 'V8/native';
  }
  const wiremcp = /packages\/([a-z-]+)\/(dist|src)\//.exec(url);
  if (wiremcp) return `@wiremcp/${wiremcp[1]}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'Node core';
  if (url.includes('apps/bench/')) return 'bench harness';
  return url;
}

/** Self time (ms) per function and per origin, and the busy total. */
export function summarizeProfile(profile: Profile): { busyMs: number; byFunction: Map<string, number>; byOrigin: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    const origin = originOf(frame.url, frame.functionName);
    if (origin === 'idle') continue;
    busyMs += ms;
    const file = frame.url.split('/').slice(-1)[0] ?? '';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1} [${origin}]`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + ms);
  }
  return { busyMs, byFunction, byOrigin };
}

function print(path: string, top: number): void {
  const { busyMs, byFunction, byOrigin } = summarizeProfile(JSON.parse(readFileSync(path, 'utf8')) as Profile);
  const pct = (ms: number): string => `${((ms / busyMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`${path}: ${busyMs.toFixed(0)} ms busy`);
  console.log('\nby origin (self time):');
  for (const [origin, ms] of [...byOrigin].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(ms)}  ${origin}`);
  console.log(`\ntop ${top} functions (self time):`);
  for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(ms)}  ${name}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path, top] = process.argv.slice(2);
  if (path === undefined) {
    console.error('usage: node apps/bench/dist/profile-summary.js <file.cpuprofile> [top=25]');
    process.exit(2);
  }
  print(path, Number(top ?? 25));
}
