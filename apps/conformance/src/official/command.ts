/**
 * The official suite run as a command: which server and client to test (ours unless told otherwise), starting our
 * server, running both legs, printing the totals and writing `official-results.json`. Shared by
 * `npm run conformance:official` and the main CLI's `--official`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_OUT_DIR, PACKAGE_ROOT, REPO_ROOT } from '../paths.js';
import { startHttpServer, type StartedHttpServer } from '../session/open-session.js';
import { loadExpectedFailures, NO_EXPECTED_FAILURES } from './expected-failures.js';
import { runOfficial } from './run-official.js';
import { runRuntimeLegs } from './runtime-legs.js';
import type { RuntimeName } from '../runtimes/runtime-servers.js';

/** The expected failures of wiremcp's own server and client. */
export const DEFAULT_OFFICIAL_EXPECTED_FAILURES: string = join(PACKAGE_ROOT, 'official-expected-failures.yaml');
/** Where the results go, and where `npm start` looks for them. */
export const OFFICIAL_RESULTS_FILE = 'official-results.json';
/**
 * The client program the client leg spawns by default: this app's (`src/official/client/main.ts`), bundled into one
 * file started through the bins' compile-cache launcher (scripts/bundle-bin.mjs --code-cache). Several client programs
 * start at once; each one resolving and reading its ~100 modules through the ESM loader and compiling them cost most of
 * its start, which on a busy 2-core machine ate into the scenario's time.
 */
export const OFFICIAL_CLIENT_PROGRAM: string = join(PACKAGE_ROOT, 'dist', 'official', 'client-bundle', 'bin.js');

/** What to run. */
export interface OfficialCommandOptions {
  /** Someone's server (else servers/everything is started). */
  readonly url?: string;
  /** Someone's client command (else this app's client program). */
  readonly clientCommand?: string;
  readonly server: boolean;
  readonly client: boolean;
  readonly expectedFailures?: string;
  readonly noExpectedFailures?: boolean;
  readonly out?: string;
  /** How the run was started, for the results file. */
  readonly command?: string;
  /** Client scenarios run at a time, each in its own process of the suite (default 6). */
  readonly clientParallel?: number;
  /** Only these client scenarios (names, or `prefix*` patterns), scored out of themselves. */
  readonly clientScenarios?: readonly string[];
  /** Only the scored runs (each revision's `--requirements`), not `--suite all`. */
  readonly scoredOnly?: boolean;
  /** Also the server leg against the everything server on these runtimes (Deno, Bun, workerd). */
  readonly runtimes?: readonly RuntimeName[];
  readonly log: (line: string) => void;
  readonly print: (line: string) => void;
}

/** Runs the suite as asked; the exit code (0 ok, 1 unexpected failure or stale entry). */
export async function runOfficialCommand(options: OfficialCommandOptions): Promise<number> {
  const ours = options.url === undefined && options.clientCommand === undefined;
  const expectedFile = options.expectedFailures ?? (ours ? DEFAULT_OFFICIAL_EXPECTED_FAILURES : undefined);
  const expected =
    options.noExpectedFailures || expectedFile === undefined ? NO_EXPECTED_FAILURES : loadExpectedFailures(resolve(expectedFile));
  let server: StartedHttpServer | undefined;
  try {
    let serverUrl = options.url;
    if (options.server && serverUrl === undefined) {
      server = await startHttpServer(
        {
          id: 'streamable-http',
          kind: 'http',
          // localhost, not 127.0.0.1: the suite's DNS-rebinding check sends the URL's own Host and expects it served.
          url: 'http://localhost:{{port}}/mcp',
          start: {
            command: [process.execPath, join(REPO_ROOT, 'servers/everything/dist/bin.js'), '--http', '127.0.0.1:{{port}}'],
            cwd: REPO_ROOT,
            env: {},
          },
        },
        60_000,
      );
      serverUrl = server.url;
      options.log(`servers/everything serving ${serverUrl}`);
    }
    // Our client runs on the Node running this command (the suite itself runs on its pinned Node 22), so
    // `npx -y -p node@24 node apps/conformance/dist/official/cli.js` tests server and client on Node 24.
    const clientCommand = options.clientCommand ?? `${process.execPath} ${OFFICIAL_CLIENT_PROGRAM}`;
    options.log(`our server and client run on Node ${process.version}`);
    const outcome = await runOfficial({
      ...(options.server && serverUrl !== undefined ? { serverUrl, serverName: options.url ?? 'wiremcp servers/everything' } : {}),
      ...(options.client ? { clientCommand, clientName: options.clientCommand ?? 'wiremcp client (apps/conformance)' } : {}),
      expected,
      ...(options.command === undefined ? {} : { command: options.command }),
      ...(options.clientParallel === undefined ? {} : { clientAtATime: options.clientParallel }),
      ...(options.clientScenarios === undefined ? {} : { clientScenarios: options.clientScenarios }),
      ...(options.scoredOnly === true ? { scoredOnly: true } : {}),
      log: options.log,
    });
    const others = options.runtimes?.length ? await runRuntimeLegs(options.runtimes, options.log) : undefined;
    const results = others ? { ...outcome.results, runs: [...outcome.results.runs, ...others.runs] } : outcome.results;
    const outDir = resolve(options.out ?? DEFAULT_OUT_DIR);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, OFFICIAL_RESULTS_FILE);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    for (const line of outcome.summary) options.print(line);
    for (const line of others?.summary ?? []) options.print(line);
    options.print(`results: ${file}${expectedFile ? `; expected failures: ${expectedFile}` : ''}`);
    return outcome.ok && (others?.ok ?? true) ? 0 : 1;
  } finally {
    await server?.stop();
  }
}
