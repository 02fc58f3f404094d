import { afterEach, describe, expect, test } from 'vitest';
import { buildChildEnvironment, DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment } from './child-environment.js';
import { onCleanup, stopEverything } from './child-processes.test-util.js';

afterEach(stopEverything);

function setEnv(name: string, value: string): void {
  const previous = process.env[name];
  process.env[name] = value;
  onCleanup(() => {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  });
}

describe('child environment', () => {
  test('inherits only the default variables that are set', () => {
    setEnv('WIREMCP_TEST_TOKEN', 'secret');
    setEnv('PATH', '/usr/bin:/bin');
    const env = getDefaultEnvironment();
    expect(env.PATH).toBe('/usr/bin:/bin');
    expect(env.WIREMCP_TEST_TOKEN).toBeUndefined();
    for (const name of Object.keys(env)) expect(DEFAULT_INHERITED_ENV_VARS).toContain(name);
  });

  test('skips exported shell functions', () => {
    setEnv('SHELL', '() { :; }; echo pwned');
    expect(getDefaultEnvironment().SHELL).toBeUndefined();
  });

  test('env overlays the defaults; undefined removes a variable', () => {
    setEnv('PATH', '/usr/bin');
    const env = buildChildEnvironment({ PATH: '/opt/bin', API_KEY: 'k', HOME: undefined });
    expect(env.PATH).toBe('/opt/bin');
    expect(env.API_KEY).toBe('k');
    expect('HOME' in env).toBe(false);
    expect(buildChildEnvironment(undefined)).toEqual(getDefaultEnvironment());
  });
});
