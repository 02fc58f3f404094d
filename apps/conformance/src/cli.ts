#!/usr/bin/env node
/**
 * `wiremcp-conformance`: the command-line entry. Parses options, runs, sets the exit code (0 all good; 1
 * unexpected failures, stale baseline entries, broken scenarios or nothing tested; 2 bad usage or setup; 3 a
 * server could not be started or reached; 130 interrupted), and makes sure every server process is gone on the
 * way out — including on Ctrl-C.
 */
import { HELP, parseCliOptions, UsageError } from './cli-options.js';
import { openEventSink, type EventSink } from './report/run-events.js';
import { runConformance } from './run-conformance.js';
import { killAllServers } from './session/child-processes.js';

const HINT = 'Run wiremcp-conformance --help for the options.\n';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let options;
  try {
    options = parseCliOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`wiremcp-conformance: ${error.message}\n${HINT}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const controller = new AbortController();
  const interrupt = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      // Second Ctrl-C: stop now.
      killAllServers();
      process.exit(130);
    }
    process.stderr.write(`\n${signal}: stopping (running cells end, their servers are stopped)…\n`);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.on('exit', killAllServers);
  // A run must never end by the event loop running dry while it awaits something nothing will settle: Node would
  // exit with code 0 and a half-done run would look like a success. The interval keeps the loop alive (a stall
  // then shows as a cell timeout), and beforeExit catches what slips through.
  const keepAlive = setInterval(() => {}, 60_000);
  const stalled = (): void => {
    process.stderr.write('wiremcp-conformance: internal error: the run stalled before finishing\n');
    killAllServers();
    process.exit(2);
  };
  process.on('beforeExit', stalled);
  let events: EventSink | undefined;
  try {
    events = options.events === undefined ? undefined : openEventSink(options.events);
    // With the events on stdout, the text goes to stderr: stdout then carries nothing but events.
    const out = options.events === '-' ? process.stderr : process.stdout;
    const { exitCode } = await runConformance(
      options,
      { out, err: process.stderr, ...(events ? { events } : {}) },
      ['wiremcp-conformance', ...argv],
      controller.signal,
    );
    return controller.signal.aborted ? 130 : exitCode;
  } catch (error) {
    process.stderr.write(`wiremcp-conformance: ${(error as Error).message}\n${error instanceof UsageError ? HINT : ''}`);
    return 2;
  } finally {
    events?.close();
    clearInterval(keepAlive);
    process.removeListener('beforeExit', stalled);
  }
}

main().then(
  (code) => {
    killAllServers();
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllServers();
    process.stderr.write(`wiremcp-conformance: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
