/**
 * The Chromium row of the conformance report: each browser test file that checks the web-standard core (the client
 * page, the OAuth popup, the server in a worker) writes what its tests did to
 * `apps/conformance/out/runtimes/chromium.<file>.json` (or `$WIREMCP_RUNTIME_RESULTS_DIR`) once it ends, and
 * `npm start` reads those files. Written whatever happened: a file whose set-up failed reports its tests as not
 * exercised and the set-up error, so that a browser that could not start never reads as passed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { CHROMIUM, chromiumVersion } from './chromium.js';

const DEFAULT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../apps/conformance/out/runtimes');

interface TaskLike {
  readonly type: string;
  readonly name: string;
  readonly tasks?: readonly TaskLike[];
  readonly mode?: string;
  readonly result?: { readonly state?: string; readonly errors?: ReadonlyArray<{ readonly message?: string }> };
}

function leaves(task: TaskLike, prefix: string[] = []): Array<{ name: string; state: string }> {
  if (task.tasks === undefined) return [{ name: [...prefix, task.name].join(' › '), state: stateOf(task) }];
  const path = task.type === 'suite' ? [...prefix, task.name] : prefix;
  return task.tasks.flatMap((child) => leaves(child, path));
}

/** pass, fail, or skip (skipped, todo, or never run: a set-up that failed). */
function stateOf(task: TaskLike): string {
  const state = task.result?.state;
  if (state === 'pass' || state === 'fail') return state;
  return 'skip';
}

/** Registers the hook that writes this test file's results for the report; `file` is the caller's `import.meta.url`. */
export function recordChromiumResults(file: string): void {
  // vitest reads the first parameter's destructuring to know which fixtures a hook uses: none here.
  afterAll(({}, suite) => {
    const task = suite as unknown as TaskLike;
    const name = basename(fileURLToPath(file), '.test.ts');
    let version: string | undefined;
    try {
      version = existsSync(CHROMIUM) ? chromiumVersion() : undefined;
    } catch {
      version = undefined;
    }
    const errors = (task.result?.errors ?? []).map((error) => (error.message ?? 'error').slice(0, 300));
    const directory = process.env['WIREMCP_RUNTIME_RESULTS_DIR'] ?? DEFAULT_DIR;
    mkdirSync(directory, { recursive: true });
    writeFileSync(
      join(directory, `chromium.${name}.json`),
      `${JSON.stringify(
        {
          runtime: 'chromium',
          ...(version === undefined ? {} : { version }),
          file: `tests/browser/test/${name}.test.ts`,
          finishedAt: new Date().toISOString(),
          tests: (task.tasks ?? []).flatMap((child) => leaves(child)),
          ...(errors.length > 0 ? { errors } : {}),
        },
        null,
        2,
      )}\n`,
    );
  });
}
