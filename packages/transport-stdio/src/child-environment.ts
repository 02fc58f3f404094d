/**
 * The variables a spawned server inherits from this process when the caller does not pass `process.env`
 * itself: enough to find programs (PATH), a home directory, the user, the terminal type, the locale (so a
 * Python or Ruby server decodes stdio as UTF-8) and the temporary directory. Secrets in the environment
 * (tokens, cloud credentials) are not handed to a third-party server by accident.
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMFILES',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'TMP',
        'USERNAME',
        'USERPROFILE',
        'COMSPEC',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR'];

/**
 * The inherited part of a server's environment: each of {@link DEFAULT_INHERITED_ENV_VARS} that is set in
 * `process.env`, except values starting with `()` (exported shell functions, a classic injection vector).
 */
export function getDefaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[name];
    if (value === undefined || value.startsWith('()')) continue;
    env[name] = value;
  }
  return env;
}

/**
 * The environment a server is spawned with: {@link getDefaultEnvironment} overlaid with `env`. A key whose
 * value is `undefined` in `env` is removed. Pass `{...process.env, ...mine}` to inherit everything.
 */
export function buildChildEnvironment(env: Readonly<Record<string, string | undefined>> | undefined): Record<string, string> {
  const result = getDefaultEnvironment();
  if (env === undefined) return result;
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}
