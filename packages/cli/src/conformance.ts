/**
 * `wiremcp conformance`: runs the conformance app of a wiremcp checkout. The app is private to the repository
 * (its scenarios, registry and baseline live there and change with it), so the command finds it from the current
 * directory upwards (`apps/conformance/dist/cli.js`, built) and runs it with the same Node, passing every argument
 * through. Outside a checkout it says how to get one.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';

/** The conformance app's entry from `start` upwards, or `undefined` when no checkout holds one. */
export function findConformanceApp(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, 'apps', 'conformance', 'dist', 'cli.js');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Runs the app with `args`; resolves with its exit code. */
export async function runConformance(args: readonly string[], cwd: string = process.cwd()): Promise<number> {
  const app = findConformanceApp(cwd);
  if (app === undefined) {
    throw new CliError(
      'the conformance app was not found: run this inside a wiremcp checkout (git clone, then npm run build), ' +
        'where apps/conformance/dist/cli.js exists',
      CLI_EXIT_CODES.usage,
    );
  }
  const child = spawn(process.execPath, [app, ...args], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    return await new Promise<number>((done, fail) => {
      child.once('error', fail);
      child.once('exit', (code, signal) => done(code ?? (signal ? 128 + 15 : 1)));
    });
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}
