#!/usr/bin/env node
/**
 * `npm run conformance:official`: the official MCP conformance suite against wiremcp — the server leg against
 * `servers/everything` over Streamable HTTP (started here on a free loopback port), the client leg with this app's
 * client program — on both scored revisions and `--suite all`, judged against `official-expected-failures.yaml`.
 * `--url` / `--client-command` point a leg at anyone's server or client instead. Writes
 * `out/official-results.json`, which `npm start` shows in its report. Exit code 0 when nothing unexpected failed
 * and no expected failure is stale, 1 otherwise, 2 for bad usage, 3 when the suite or the server could not run.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isRuntimeName, RUNTIMES } from '../runtimes/runtime-servers.js';
import { runOfficialCommand } from './command.js';
import { startMixedLoad } from './mixed-load.js';

const HELP = `Usage: conformance:official [options]

Runs the official MCP conformance suite (both legs, revisions 2025-11-25 and 2026-07-28, and --suite all).

  --url <url>               the server leg against this Streamable HTTP endpoint (default: servers/everything, started here)
  --client-command "<cmd>"  the client leg with this command (default: this app's client program)
  --runtimes <list>         also the server leg against servers/everything on these runtimes (comma-separated:
                            deno, bun, workerd, or all), each installed from npm when missing
  --server-only             run only the server leg
  --client-only             run only the client leg
  --expected-failures <f>   expected failures (default apps/conformance/official-expected-failures.yaml)
  --no-expected-failures    expect nothing to fail
  --out <dir>               where official-results.json goes (default apps/conformance/out)
  --scored-only             only the scored runs (each revision's --requirements), not --suite all
  --client-parallel <n>     client scenarios run at a time, each in its own process of the suite (default 6, 1 to 64)
  --client-scenarios <list> only these client scenarios (comma-separated names, or prefixes ending in *, e.g. auth/*),
                            in each run that plans them, scored out of themselves; a named scenario the suite leaves
                            without a result is not run and fails the run
  --under-load <seconds>    run beside a mixed load (a package install, a TypeScript build, batches of process
                            starts, a CPU burner per core, paced fsync'd disk writes), stopped when the run ends
                            and after <seconds> at most; exit 3 when a part of the load never completed a round
  -h, --help                print this text

Examples:
  npm run conformance:official
  npm run conformance:official -- --client-only --under-load 420
  npm run conformance:official -- --client-only --client-parallel 4
  npm run conformance:official -- --client-only --scored-only --client-scenarios tools_call,sse-retry,auth/metadata-* --under-load 600
  node apps/conformance/dist/official/cli.js --url http://localhost:3001/mcp --server-only
`;

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        'client-command': { type: 'string' },
        runtimes: { type: 'string' },
        'server-only': { type: 'boolean' },
        'client-only': { type: 'boolean' },
        'expected-failures': { type: 'string' },
        'no-expected-failures': { type: 'boolean' },
        out: { type: 'string' },
        'under-load': { type: 'string' },
        'client-parallel': { type: 'string' },
        'client-scenarios': { type: 'string' },
        'scored-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values['server-only'] && values['client-only']) {
    process.stderr.write('--server-only and --client-only exclude each other\n');
    return 2;
  }
  const runtimes = values.runtimes === undefined ? [] : values.runtimes === 'all' ? Object.keys(RUNTIMES) : values.runtimes.split(',');
  const unknown = runtimes.filter((name) => !isRuntimeName(name));
  if (unknown.length > 0) {
    process.stderr.write(`--runtimes: unknown runtime ${unknown.join(', ')} (known: ${Object.keys(RUNTIMES).join(', ')}, all)\n`);
    return 2;
  }
  const seconds = values['under-load'] === undefined ? undefined : Number(values['under-load']);
  if (seconds !== undefined && !(Number.isInteger(seconds) && seconds >= 10 && seconds <= 3600)) {
    process.stderr.write(`--under-load: a whole number of seconds from 10 to 3600, not '${values['under-load']}'\n`);
    return 2;
  }
  const parallel = values['client-parallel'] === undefined ? undefined : Number(values['client-parallel']);
  if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1 && parallel <= 64)) {
    process.stderr.write(`--client-parallel: a whole number from 1 to 64, not '${values['client-parallel']}'\n`);
    return 2;
  }
  const clientScenarios = values['client-scenarios']?.split(',').map((name) => name.trim());
  if (clientScenarios !== undefined && (values['server-only'] || clientScenarios.some((name) => name === '' || name === '*'))) {
    process.stderr.write(
      values['server-only']
        ? '--client-scenarios needs the client leg (not --server-only)\n'
        : `--client-scenarios: comma-separated scenario names or prefixes ending in *, not '${values['client-scenarios']}'\n`,
    );
    return 2;
  }
  const log = (line: string): void => void process.stderr.write(`[official] ${line}\n`);
  const load = seconds === undefined ? undefined : startMixedLoad({ seconds, log });
  let code = 3;
  try {
    code = await runOfficialCommand({
      ...(runtimes.length > 0 ? { runtimes: runtimes.filter(isRuntimeName) } : {}),
      ...(values.url === undefined ? {} : { url: values.url }),
      ...(values['client-command'] === undefined ? {} : { clientCommand: values['client-command'] }),
      server: values['client-only'] !== true,
      client: values['server-only'] !== true,
      ...(values['expected-failures'] === undefined ? {} : { expectedFailures: values['expected-failures'] }),
      noExpectedFailures: values['no-expected-failures'] === true,
      ...(values.out === undefined ? {} : { out: values.out }),
      ...(parallel === undefined ? {} : { clientParallel: parallel }),
      ...(clientScenarios === undefined ? {} : { clientScenarios }),
      ...(values['scored-only'] === true ? { scoredOnly: true } : {}),
      log,
      print: (line) => process.stdout.write(`${line}\n`),
    });
  } finally {
    const report = await load?.stop();
    if (report !== undefined && report.idle.length > 0) {
      log(`the load was lighter than asked: ${report.idle.join(', ')} completed no round and kept no CPU busy`);
      for (const part of report.parts.filter((entry) => report.idle.includes(entry.part) && entry.stderr !== ''))
        log(`${part.part}: ${part.stderr}`);
      code = 3;
    }
  }
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`[official] ${(error as Error).message}\n`);
      process.exit(3);
    },
  );
}
