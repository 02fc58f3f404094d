/**
 * How long the client program waits for the scenario's mock server. The suite gives each client program a limit per
 * scenario (its `--timeout`) and starts all of a run's scenarios at once, their mock servers in its one process; on
 * a busy machine that process answers slowly, and the client's own shorter limits (20 s per request, 10 s per
 * authorization exchange) expired first: `initialize` and `/token` timed out inside a scenario that still had time.
 * So the program's limits follow the suite's: `WIREMCP_CONFORMANCE_TIMEOUT_MS` (set by this app to the limit it
 * passes as `--timeout`), less a margin so that the program's own error, naming the request, is what gets reported.
 */

/** The suite's default per-scenario limit, used when the variable is absent (the suite run by hand). */
const SUITE_DEFAULT_MS = 30_000;
/** Left to the program to report its error before the suite stops it. */
const MARGIN_MS = 5_000;
/** Never less than this, whatever the variable says. */
const FLOOR_MS = 5_000;

/** The per-request and per-exchange limit for this run, in milliseconds. */
export function clientTimeLimitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WIREMCP_CONFORMANCE_TIMEOUT_MS;
  const suite = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : SUITE_DEFAULT_MS;
  return Math.max(FLOOR_MS, suite - MARGIN_MS);
}
