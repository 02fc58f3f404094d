/**
 * How the main run (`npm start`) gets the official suite's results: `--official` runs the suite first (against
 * `--url` and/or `--official-client`, or against wiremcp's own server and client when neither is given);
 * `--official-results <file>` reads a file; otherwise the results `npm run conformance:official` last wrote into the
 * output directory are included when present, so the report shows them without paying for another run.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliOptions } from '../cli-options.js';
import { DEFAULT_OUT_DIR } from '../paths.js';
import { loadOfficialResults, type OfficialSuiteResults } from '../report/official-suite.js';
import { OFFICIAL_RESULTS_FILE, runOfficialCommand } from './command.js';

/** The official results to put into the report, if any; `log` says where they came from. */
export async function officialResultsFor(options: CliOptions, log: (line: string) => void): Promise<OfficialSuiteResults | undefined> {
  if (options.officialResults !== undefined) return loadOfficialResults(resolve(options.officialResults));
  const outDir = resolve(options.out ?? DEFAULT_OUT_DIR);
  const file = join(outDir, OFFICIAL_RESULTS_FILE);
  if (options.official) {
    const theirs = options.url !== undefined || options.officialClient !== undefined;
    if (options.command !== undefined && options.officialClient === undefined) {
      log('official suite: it drives servers over Streamable HTTP only, so a --command server gets no official server leg');
      return undefined;
    }
    log('official suite: running it first (--official)');
    const code = await runOfficialCommand({
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.officialClient === undefined ? {} : { clientCommand: options.officialClient }),
      server: !theirs || options.url !== undefined,
      client: !theirs || options.officialClient !== undefined,
      out: outDir,
      command: `wiremcp-conformance --official${options.url ? ` --url ${options.url}` : ''}${options.officialClient ? ` --official-client "${options.officialClient}"` : ''}`,
      log: (line) => log(`official suite: ${line}`),
      print: log,
    });
    if (code !== 0)
      log('official suite: unexpected failures or stale expected failures (shown in the report; the exit code is the matrix one)');
    return loadOfficialResults(file);
  }
  if (options.url !== undefined || options.command !== undefined || !existsSync(file)) return undefined;
  const results = loadOfficialResults(file);
  log(
    `official suite: including the results of ${results.startedAt ?? 'an earlier run'} from ${file} (npm run conformance:official refreshes them)`,
  );
  return results;
}
