#!/usr/bin/env node
// The repository's entry point for `npm start`, `npm test`, `npm run build` and `npm run bench`.
// A fresh clone has only Node and npm: this installs pnpm (pinned, through npx) and every dependency
// from the lockfile, builds what the task needs with turbo, then runs the task itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = 'pnpm@10.34.8';
const env = {
  ...process.env,
  // turbo looks up the package manager (pnpm, a root devDependency) on PATH.
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
};
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(`\n[wiremcp] '${cmd} ${args.join(' ')}' failed with exit code ${result.status}\n`);
    process.exit(result.status ?? 1);
  }
}

function install() {
  const local = bin('pnpm');
  if (existsSync(local)) run(local, ['install', '--frozen-lockfile', '--prefer-offline']);
  else run('npx', ['-y', PNPM, 'install', '--frozen-lockfile']);
}

// turbo's own banner, its per-task cache lines and the `> pkg build` preamble of each task: the progress line
// below says the same in one line. What remains is what a task prints: its errors.
const TURBO_NOISE = /^\s*(•|Tasks:|Cached:|Time:)|:build: (cache (hit|miss)|> |\s*$)|^\s*$/;

/**
 * Builds with turbo, showing one progress line while it runs (rewritten in place on a terminal: elapsed time and
 * the task running; a start and an end line in logs), and passing through only what a task prints — its errors.
 */
async function build() {
  const started = Date.now();
  const live = process.stderr.isTTY && !process.env.CI;
  const child = spawn(bin('turbo'), ['run', 'build', '--output-logs=new-only', '--log-order=stream'], { cwd: root, env });
  let packages = '';
  let current = '';
  let tasks = 0;
  let cached = 0;
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const line = () => `[wiremcp] building${packages ? ` ${packages} packages` : ''} · ${elapsed()}${current ? ` · ${current}` : ''}`;
  const show = () => live && process.stderr.write(`\r\x1b[2K${line()}`);
  if (!live) process.stderr.write('[wiremcp] building with turbo…\n');
  const timer = setInterval(show, 500);
  const onLine = (text) => {
    const scope = /Running build in (\d+) packages/.exec(text);
    if (scope) packages = scope[1];
    const task = /^(\S+):build: cache (hit|miss)/.exec(text);
    if (task) {
      tasks += 1;
      if (task[2] === 'hit') cached += 1;
      current = task[1];
    }
    if (TURBO_NOISE.test(text)) return show();
    if (live) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`${text}\n`);
    show();
  };
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const text of lines) onLine(text);
    });
    stream.on('end', () => rest && onLine(rest));
  }
  const code = await new Promise((resolve) => {
    child.on('error', (error) => resolve(error));
    child.on('close', (status) => resolve(status));
  });
  clearInterval(timer);
  if (live) process.stderr.write('\r\x1b[2K');
  if (code instanceof Error) throw code;
  if (code !== 0) {
    process.stderr.write(`\n[wiremcp] the build failed after ${elapsed()} (turbo exit code ${code})\n`);
    process.exit(code ?? 1);
  }
  process.stderr.write(`[wiremcp] built in ${elapsed()}: ${tasks} tasks, ${cached} from the cache\n`);
}

const task = process.argv[2];
const rest = process.argv.slice(3);
switch (task) {
  case 'build':
    install();
    await build();
    break;
  case 'test':
    install();
    await build();
    run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
    run(bin('prettier'), ['--check', '--log-level=warn', '.']);
    run(bin('eslint'), ['--max-warnings=0', '.']);
    if (rest.length > 0) run(bin('vitest'), ['run', ...rest]);
    else {
      // The release rehearsal (a local registry, npm/pnpm/yarn installs, type checks) runs alone, after the rest:
      // beside it, the browser and process tests starve for CPU on a 2-core machine.
      run(bin('vitest'), ['run', '--exclude', 'tests/release/**']);
      run(bin('vitest'), ['run', 'tests/release']);
    }
    break;
  case 'start':
    install();
    await build();
    run(process.execPath, [join(root, 'apps/conformance/dist/cli.js'), ...rest]);
    break;
  case 'conformance:official':
    install();
    await build();
    run(process.execPath, [join(root, 'apps/conformance/dist/official/cli.js'), ...rest]);
    break;
  case 'bench':
    install();
    await build();
    run(process.execPath, [join(root, 'apps/bench/dist/cli.js'), ...rest]);
    break;
  case 'cluster':
    // Runs until Ctrl-C; the cluster script stops its processes itself, so the signal is not an error here.
    process.on('SIGINT', () => {});
    install();
    await build();
    spawnSync(bin('tsx'), [join(root, 'scripts/cluster/cli.ts'), ...rest], { cwd: root, stdio: 'inherit', env });
    break;
  case 'bench-cluster':
    install();
    await build();
    // `--faults`: what an instance kill and a Redis restart cost the clients (scripts/cluster/fault-bench.ts).
    run(bin('tsx'), [join(root, rest.includes('--faults') ? 'scripts/cluster/fault-bench.ts' : 'scripts/cluster/bench.ts'), ...rest]);
    break;
  default:
    process.stderr.write('usage: node scripts/run.mjs <build|test|start|bench|bench-cluster|cluster|conformance:official> [args...]\n');
    process.exit(2);
}
