// What a stdio server started by the CLI finds in its environment: the safe default set, what `-e` adds, and
// everything only when asked for with --inherit-env.
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { stopAll, wiremcp } from './cli.test-util.js';

afterEach(stopAll);

const ENV_SERVER = fileURLToPath(new URL('../test/fixtures/env-server.mjs', import.meta.url));
/** A variable of the CLI's own environment that is not in the safe default set (a token, say). */
const SECRET = { WIREMCP_TEST_TOKEN: 'do-not-leak' };

async function serverEnv(flags: string[]): Promise<Record<string, string>> {
  const result = await wiremcp(['call', '--json', ...flags, 'env', 'node', ENV_SERVER], { env: SECRET });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const text = (JSON.parse(result.stdout) as { content: [{ text: string }] }).content[0].text;
  return JSON.parse(text) as Record<string, string>;
}

test("by default the server gets the safe set (PATH, HOME…), not the CLI's whole environment", async () => {
  const env = await serverEnv([]);
  expect(env.PATH).toBe(process.env.PATH);
  expect(env.HOME).toBe(process.env.HOME);
  expect(env.WIREMCP_TEST_TOKEN).toBeUndefined();
  expect(env.NO_COLOR).toBeUndefined();
});

test('-e NAME=value adds a variable (and may override one of the safe set); a value may contain =', async () => {
  const env = await serverEnv(['-e', 'API_KEY=a=b', '-e', 'HOME=/elsewhere']);
  expect(env.API_KEY).toBe('a=b');
  expect(env.HOME).toBe('/elsewhere');
  expect(env.WIREMCP_TEST_TOKEN).toBeUndefined();
});

test('--inherit-env hands over everything, with -e on top', async () => {
  const env = await serverEnv(['--inherit-env', '-e', 'API_KEY=k']);
  expect(env.WIREMCP_TEST_TOKEN).toBe('do-not-leak');
  expect(env.API_KEY).toBe('k');
});

test('-e without a name is a usage error', async () => {
  const result = await wiremcp(['call', '-e', '=x', 'env', 'node', ENV_SERVER]);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/--env needs NAME=value, got "=x"/);
});
