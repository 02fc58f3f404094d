#!/usr/bin/env node
// The repository's entry point for `npm start`, `npm test`, `npm run build` and `npm run bench`.
// A fresh clone has only Node and npm: this installs pnpm (pinned, through npx) and every dependency
// from the lockfile, builds what the task needs with turbo, then runs the task itself.
import { spawnSync } from 'node:child_process';
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

function build() {
  run(bin('turbo'), ['run', 'build', '--output-logs=errors-only', '--log-order=grouped']);
}

const task = process.argv[2];
const rest = process.argv.slice(3);
switch (task) {
  case 'build':
    install();
    build();
    break;
  case 'test':
    install();
    build();
    run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
    run(bin('prettier'), ['--check', '--log-level=warn', '.']);
    run(bin('vitest'), ['run', ...rest]);
    break;
  case 'start':
    install();
    build();
    run(process.execPath, [join(root, 'apps/conformance/dist/cli.js'), ...rest]);
    break;
  case 'bench':
    install();
    build();
    run(process.execPath, [join(root, 'apps/bench/dist/cli.js'), ...rest]);
    break;
  default:
    process.stderr.write('usage: node scripts/run.mjs <build|test|start|bench> [args...]\n');
    process.exit(2);
}
