/**
 * A client program for the official suite's `auth/*` scenarios alone: `node auth-main.js <serverUrl>` with
 * `MCP_CONFORMANCE_SCENARIO` set, as `conformance client --command` runs it. Exits 0 when the scenario's flow
 * completed, 1 (with the reason on stderr) when it did not.
 */
import { runAuthScenario } from './auth-scenarios.js';

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const serverUrl = process.argv.at(-1) ?? '';
if (!scenario.startsWith('auth/') || !/^https?:\/\//.test(serverUrl)) {
  process.stderr.write('usage: MCP_CONFORMANCE_SCENARIO=auth/<name> auth-main <serverUrl>\n');
  process.exit(2);
}
try {
  await runAuthScenario(scenario, serverUrl);
} catch (error) {
  process.stderr.write(`${scenario}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
