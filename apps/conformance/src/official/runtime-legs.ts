/**
 * The official suite's server leg against the everything server on other runtimes (Deno, Bun, workerd): each one
 * started here (installed from npm when missing), judged against its own expected failures
 * (`official-expected-failures.<runtime>.yaml` when present, else nothing may fail), its runs added to the results
 * under the server name `wiremcp servers/everything on <runtime> <version>`. A runtime that cannot start fails the
 * run. Deno and Bun get every run Node gets; workerd the scored runs (2025-11-25 sessions and 2026-07-28
 * stateless): its `--suite all` adds only the unscored scenarios that wait on work outliving a request, which a
 * Worker cannot do (see the expected-failures file), at the price of their timeouts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import type { OfficialRun } from '../report/official-suite.js';
import { RUNTIMES, startRuntimeServer, type RuntimeName, type RuntimeServer } from '../runtimes/runtime-servers.js';
import { loadExpectedFailures, NO_EXPECTED_FAILURES } from './expected-failures.js';
import { runOfficial } from './run-official.js';

/** The expected failures of the everything server on `runtime`. */
export function runtimeExpectedFailuresFile(runtime: RuntimeName): string {
  return join(PACKAGE_ROOT, `official-expected-failures.${runtime}.yaml`);
}

/** What the runtime legs found. */
export interface RuntimeLegsOutcome {
  readonly runs: readonly OfficialRun[];
  readonly summary: readonly string[];
  readonly ok: boolean;
}

/** Runs the server leg against the everything server on each runtime, one after another. */
export async function runRuntimeLegs(runtimes: readonly RuntimeName[], log: (line: string) => void): Promise<RuntimeLegsOutcome> {
  const runs: OfficialRun[] = [];
  const summary: string[] = [];
  let ok = true;
  for (const runtime of runtimes) {
    let server: RuntimeServer;
    try {
      server = await startRuntimeServer(runtime, log);
    } catch (error) {
      ok = false;
      summary.push(`${RUNTIMES[runtime].title}: FAILED to start: ${(error as Error).message}`);
      continue;
    }
    try {
      log(`servers/everything on ${server.label} serving ${server.url}`);
      const file = runtimeExpectedFailuresFile(runtime);
      const outcome = await runOfficial({
        serverUrl: server.url,
        serverName: `wiremcp servers/everything on ${server.label}`,
        expected: existsSync(file) ? loadExpectedFailures(file) : NO_EXPECTED_FAILURES,
        scoredOnly: runtime === 'workerd',
        log,
      });
      runs.push(...outcome.results.runs);
      summary.push(`on ${server.label}:`, ...outcome.summary.slice(1).map((line) => `  ${line}`));
      if (!outcome.ok) ok = false;
    } catch (error) {
      ok = false;
      summary.push(
        `${server.label}: FAILED: ${(error as Error).message}${server.stderr() ? `; stderr: ${server.stderr().slice(-1000)}` : ''}`,
      );
    } finally {
      await server.stop();
    }
  }
  return { runs, summary, ok };
}
