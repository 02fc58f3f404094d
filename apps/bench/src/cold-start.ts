// Cold start of the bins, side by side: the hand-written baseline server, then each reference server as it ran
// before bundling (its tsc output, dist/bin.js: Node's ESM loader reading every module of every package), as its bin
// runs now (bin/<name>.js → dist/bundle/bin.js, which starts the one-file program through a V8 code cache), and as
// that bin runs the very first time (no cache yet: WIREMCP_COMPILE_CACHE=0, the cost of compiling the program), and
// the wiremcp command the same way.
//
//   node apps/bench/dist/cold-start.js [--rounds N] [--only <groups>] [--against <checkout>]
//                                       (after npm run build; default 21 rounds)
//
// Each bundled server also starts with `--otel` (tracing set up, its OpenTelemetry SDK loaded; the collector it would
// export to is a closed port, and no span is made before the answer). `--only grammar,command` keeps those groups
// (the baselines always run); `--against <checkout>` adds that built checkout's bundled bins, with and without
// `--otel`, and a table of this build ÷ that one (the median of the per-round ratios, with their range).
//
// A server's cold start is spawn → the `initialize` answer read (stdio, NDJSON); the command's is spawn → exit of
// `wiremcp --version` (its baseline: `node -e` printing a version, the floor of any Node command). Rounds are
// interleaved (every command once per round) so that load on the machine falls on all alike, and each process has
// exited before the next one starts (a server's time is still taken at its answer); the table gives
// medians and the ratio of each median to its baseline's, against the ≤ 1.2× target. For servers it also gives the
// CPU time all the process's threads had run when its answer arrived (/proc/<pid>/task/*/schedstat, ns resolution):
// on a loaded machine the wall time is mostly waiting for a core, the CPU time much less so.
//
// The compile cache lives in a directory made for the run and removed after it; the warm-up start of each bin
// writes it, as a user's first start does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { processCpuPreciseMs } from './proc-stats.js';
import { finite, median } from './stats.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cold-start","version":"1"}}}\n';

interface Subject {
  readonly group: string;
  readonly label: string;
  readonly args: readonly string[];
  /** `server`: until the initialize answer; `command`: until exit. */
  readonly kind: 'server' | 'command';
  readonly baseline?: boolean;
  /** Extra environment for the child. */
  readonly env?: Readonly<Record<string, string>>;
  /** With `--against`: the other checkout's row this one is compared with. */
  readonly against?: Subject;
}

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '21' }, only: { type: 'string' }, against: { type: 'string' } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds needs a positive integer');
const only = values.only?.split(',').filter((group) => group !== '');
const against = values.against === undefined ? undefined : `${values.against.replace(/\/+$/, '')}/`;

/** A collector address nothing listens on: `--otel` sets up its exporter, and nothing is sent before the answer. */
const OTEL_ENV = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' };

const FILESYSTEM_ARGS = ['--read-only', `${root}servers/filesystem/test/fixtures/conformance`];

function serverSubjects(dir: string, bin: string, extra: readonly string[] = []): Subject[] {
  const bundled = (label: string, flags: readonly string[], env?: Readonly<Record<string, string>>): Subject[] => {
    const mine: Subject = { group: dir, label, args: [`${root}servers/${dir}/bin/${bin}.js`, ...flags, ...extra], kind: 'server', env };
    if (against === undefined) return [mine];
    const theirs: Subject = {
      ...mine,
      label: `${label} [${against}]`,
      args: [`${against}servers/${dir}/bin/${bin}.js`, ...flags, ...extra],
    };
    return [theirs, { ...mine, against: theirs }];
  };
  return [
    {
      group: dir,
      label: `node servers/${dir}/dist/bin.js (unbundled)`,
      args: [`${root}servers/${dir}/dist/bin.js`, ...extra],
      kind: 'server',
    },
    ...bundled(`node servers/${dir}/bin/${bin}.js (bundled)`, []),
    ...bundled(`node servers/${dir}/bin/${bin}.js --otel (bundled)`, ['--otel'], OTEL_ENV),
    {
      group: dir,
      label: `node servers/${dir}/bin/${bin}.js (bundled, first start: no compile cache)`,
      args: [`${root}servers/${dir}/bin/${bin}.js`, ...extra],
      kind: 'server',
      env: { WIREMCP_COMPILE_CACHE: '0' },
    },
  ];
}

const ALL_SUBJECTS: readonly Subject[] = [
  {
    group: 'server',
    label: 'node apps/bench/dist/servers/baseline-server.js (baseline)',
    args: [`${root}apps/bench/dist/servers/baseline-server.js`],
    kind: 'server',
    baseline: true,
  },
  ...serverSubjects('grammar', 'wiremcp-grammar'),
  ...serverSubjects('everything', 'wiremcp-everything'),
  ...serverSubjects('resources-demo', 'wiremcp-resources-demo'),
  ...serverSubjects('filesystem', 'wiremcp-filesystem', FILESYSTEM_ARGS),
  {
    group: 'command',
    label: 'node -e \'console.log("0.1.0")\' (baseline)',
    args: ['-e', 'console.log("0.1.0")'],
    kind: 'command',
    baseline: true,
  },
  {
    group: 'command',
    label: 'wiremcp --version, packages/cli/dist/bin.js (unbundled)',
    args: [`${root}packages/cli/dist/bin.js`, '--version'],
    kind: 'command',
  },
  {
    group: 'command',
    label: 'wiremcp --version, packages/cli/bin/wiremcp.js (bundled)',
    args: [`${root}packages/cli/bin/wiremcp.js`, '--version'],
    kind: 'command',
  },
  {
    group: 'command',
    label: 'wiremcp --help, packages/cli/bin/wiremcp.js (bundled)',
    args: [`${root}packages/cli/bin/wiremcp.js`, '--help'],
    kind: 'command',
  },
];

const SUBJECTS = ALL_SUBJECTS.filter((subject) => subject.baseline === true || only === undefined || only.includes(subject.group));
const TIMEOUT_MS = 30_000;
const cacheDir = mkdtempSync(join(tmpdir(), 'wiremcp-cold-start-'));

/** CPU ms of each server's cold starts (read when the answer arrives; `undefined` where it could not be read), per round. */
const cpu = new Map<Subject, Array<number | undefined>>();

/** One cold start of `subject`, in ms. */
function once(subject: Subject): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const env = { ...process.env, WIREMCP_COMPILE_CACHE_DIR: cacheDir, ...subject.env };
    const child = spawn(process.execPath, [...subject.args], { stdio: ['pipe', 'pipe', 'ignore'], env });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${subject.label}: no answer in ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    };
    // A server's time is taken when its answer arrives, but the start counts as over only once the process has
    // exited: the next subject must not start while this one is still shutting down on the same cores.
    let answeredMs: number | undefined;
    child.once('error', reject);
    if (subject.kind === 'command') {
      child.stdin.end();
      child.once('exit', (code) => (code === 0 ? done() : reject(new Error(`${subject.label} exited with ${code}`))));
      return;
    }
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (out.includes('\n')) return;
      out += chunk;
      if (!out.includes('\n')) return;
      answeredMs = performance.now() - started;
      const used = child.pid === undefined ? undefined : processCpuPreciseMs(child.pid);
      cpu.set(subject, [...(cpu.get(subject) ?? []), used]);
      child.stdin.end();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (answeredMs === undefined) reject(new Error(`${subject.label} exited with ${code} before answering`));
      else resolve(answeredMs);
    });
    child.stdin.write(INITIALIZE);
  });
}

const times = new Map<Subject, number[]>(SUBJECTS.map((subject) => [subject, []]));
try {
  // Warm-up, discarded: files into the page cache, and each bundled bin's compile cache written.
  for (const subject of SUBJECTS) await once(subject);
  cpu.clear();
  for (let round = 0; round < rounds; round++) {
    for (const subject of SUBJECTS) times.get(subject)!.push(await once(subject));
  }
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}

const lines = [
  `Cold start, median of ${rounds} interleaved rounds (node ${process.version}); ratio to the baseline of its group; target ≤ 1.2×.`,
  '',
  '| what | median ms | × baseline | CPU ms at the answer | CPU × baseline |',
  '| --- | ---: | ---: | ---: | ---: |',
];
let baseline = 0;
let cpuBaseline = 0;
for (const subject of SUBJECTS) {
  const value = median(times.get(subject)!);
  const used = finite(cpu.get(subject) ?? []);
  const cpuValue = used.length === 0 ? undefined : median(used);
  if (subject.baseline) [baseline, cpuBaseline] = [value, cpuValue ?? 0];
  const ratio = (of: number, base: number): string => (subject.baseline ? '1.00' : base > 0 ? (of / base).toFixed(2) : '—');
  const cpuCells = cpuValue === undefined ? '— | —' : `${cpuValue.toFixed(1)} | ${ratio(cpuValue, cpuBaseline)}`;
  lines.push(`| ${subject.label} | ${value.toFixed(1)} | ${ratio(value, baseline)} | ${cpuCells} |`);
}
const compared = SUBJECTS.filter((subject) => subject.against !== undefined);
if (compared.length > 0) {
  lines.push('', `This build ÷ ${against}: the median of the per-round ratios (range), wall time to the answer and CPU at the answer.`, '');
  lines.push('| what | × wall | × CPU |', '| --- | ---: | ---: |');
  const perRound = (of: Map<Subject, ReadonlyArray<number | undefined>>, subject: Subject): string => {
    const mine = of.get(subject) ?? [];
    const theirs = of.get(subject.against!) ?? [];
    const ratios = mine.flatMap((value, i) => {
      const base = theirs[i];
      return value !== undefined && base !== undefined && base > 0 ? [value / base] : [];
    });
    if (ratios.length === 0) return '—';
    return `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, n=${ratios.length})`;
  };
  for (const subject of compared) lines.push(`| ${subject.label} | ${perRound(times, subject)} | ${perRound(cpu, subject)} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
