/**
 * The official suite (`@modelcontextprotocol/conformance`, installed from the registry) against `runAuthScenario`
 * through the built `auth-main` program: every `auth/*` client scenario, on the 2025-11-25 and 2026-07-28 wires, the
 * 2025-03-26 backcompat pair, and the extensions (client credentials, enterprise-managed, DPoP with and without
 * nonces, workload identity). Every scenario must pass with no failed check and no expected failure. Needs root for a
 * loopback-only network namespace; outside CI a machine without one skips with a message, in CI it fails.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { canIsolateNetwork, installOfficialCli, runOfficialClient, suiteSummary } from './official-cli.test-util.js';

const PROGRAM = fileURLToPath(new URL('../../../dist/official/client/auth-main.js', import.meta.url));

/** The scored authorization-code scenarios the `auth` suite runs (both wires). */
const AUTH_SUITE = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

/** Scenarios introduced in 2026-07-28 (run one by one: no suite holds only them). */
const ONLY_2026 = [
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];

const BACKCOMPAT = ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'];

const EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

// In CI the namespace must be available (the run fails below if it is not); elsewhere its absence skips, with a line.
const isolated = await canIsolateNetwork();
if (!isolated && !process.env.CI) {
  process.stderr.write('official auth scenarios skipped: this machine cannot make a network namespace (unshare -n needs root)\n');
}

beforeAll(async () => {
  if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: run \`turbo run build\` before these tests`);
  if (!isolated) throw new Error('the official suite needs a loopback-only network namespace (unshare -n, as root)');
  await installOfficialCli();
}, 320_000);

function expectAllPassed(output: string, code: number | null, scenarios: readonly string[]): void {
  const summary = suiteSummary(output);
  expect([...summary.keys()].sort(), output.slice(-4000)).toEqual([...scenarios].sort());
  for (const [name, result] of summary) expect({ name, ...result }).toMatchObject({ name, failed: 0 });
  expect(output).toMatch(/Total: \d+ passed, 0 failed, 0 warnings/);
  expect(code).toBe(0);
}

describe.skipIf(!isolated && !process.env.CI)('official auth/* client scenarios against runAuthScenario', () => {
  test.each([
    ['auth', '2025-11-25', AUTH_SUITE],
    ['auth', '2026-07-28', AUTH_SUITE],
    ['backcompat', '2025-03-26', BACKCOMPAT],
    ['extensions', 'default', EXTENSIONS],
  ] as const)(
    '--suite %s (wire %s): every scenario passes',
    async (suite, version, scenarios) => {
      const args = ['--suite', suite, ...(version === 'default' ? [] : ['--spec-version', version])];
      const { code, output } = await runOfficialClient(PROGRAM, args, 120_000);
      expectAllPassed(output, code, scenarios);
    },
    150_000,
  );

  test('the 2026-07-28 scenarios (resource mismatch, offline access, AS migration, iss checks, metadata issuer)', async () => {
    for (const scenario of ONLY_2026) {
      const { output } = await runOfficialClient(PROGRAM, ['--scenario', scenario], 60_000);
      expect({ scenario, overall: /OVERALL: (\w+)/.exec(output)?.[1] }, output.slice(-3000)).toEqual({ scenario, overall: 'PASSED' });
      expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    }
  }, 300_000);
});
