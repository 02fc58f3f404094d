/**
 * The conformance client program the official MCP conformance suite spawns for its client leg: the scenario in
 * `MCP_CONFORMANCE_SCENARIO`, the revision in `MCP_CONFORMANCE_PROTOCOL_VERSION`, scenario data (JSON) in
 * `MCP_CONFORMANCE_CONTEXT`, and the mock server's URL as the last argument. It is built only on `@wiremcp/client`
 * and `@wiremcp/transport-http`: whatever a scenario checks is the library's behaviour, not this program's.
 * Exit code 0 when the scenario's steps ran, 1 with the error on stderr otherwise.
 */
import { runAuthScenario } from './auth-scenarios.js';
import { runClientScenario } from './scenarios.js';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;

async function main(): Promise<void> {
  if (serverUrl === undefined || !/^https?:\/\//.test(serverUrl))
    throw new Error('usage: official-client <server URL> (the last argument)');
  if (!scenario) throw new Error('MCP_CONFORMANCE_SCENARIO is not set');
  if (scenario.startsWith('auth/')) return runAuthScenario(scenario, serverUrl);
  let context: unknown;
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw) context = JSON.parse(raw);
  await runClientScenario({
    scenario,
    serverUrl,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25',
    context,
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `official-client: ${scenario ?? '(no scenario)'}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
