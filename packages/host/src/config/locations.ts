/**
 * The usual places host configurations live, so a tool can find them without being told: the project's files first
 * (from the working directory up to the filesystem root), then the user's (Cursor, VS Code, Claude Desktop).
 */
import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Where to look, and for which platform (defaults: this process's). */
export interface LocationOptions {
  readonly cwd?: string;
  readonly home?: string;
  readonly platform?: NodeJS.Platform;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Project files looked for in a folder, in order of preference. */
export const PROJECT_CONFIG_FILES: readonly string[] = ['mcp.json', '.mcp.json', join('.vscode', 'mcp.json'), join('.cursor', 'mcp.json')];

/** The user-level configuration files of this platform, in order of preference. */
export function userConfigFiles(options: LocationOptions = {}): string[] {
  const home = options.home ?? homedir();
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const files = [join(home, '.cursor', 'mcp.json')];
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support');
    files.push(join(support, 'Code', 'User', 'mcp.json'), join(support, 'Claude', 'claude_desktop_config.json'));
  } else if (platform === 'win32') {
    const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
    files.push(join(appData, 'Code', 'User', 'mcp.json'), join(appData, 'Claude', 'claude_desktop_config.json'));
  } else {
    const config = env.XDG_CONFIG_HOME || join(home, '.config');
    files.push(join(config, 'Code', 'User', 'mcp.json'), join(config, 'Claude', 'claude_desktop_config.json'));
  }
  return files;
}

/** Every candidate path, in order: project files from `cwd` upwards (stopping at `home`), then the user's files. */
export function candidateConfigFiles(options: LocationOptions = {}): string[] {
  const home = resolve(options.home ?? homedir());
  const out: string[] = [];
  let folder = resolve(options.cwd ?? process.cwd());
  for (;;) {
    for (const name of PROJECT_CONFIG_FILES) out.push(join(folder, name));
    const parent = dirname(folder);
    if (parent === folder || folder === home) break;
    folder = parent;
  }
  out.push(...userConfigFiles(options));
  // The home folder's own project files and the user's files can be the same file (~/.cursor/mcp.json).
  return [...new Set(out)];
}

/** The candidates that exist, in order of preference (the first is the one to use). */
export async function findConfigFiles(options: LocationOptions = {}): Promise<string[]> {
  const found: string[] = [];
  for (const file of candidateConfigFiles(options)) {
    try {
      await access(file);
      found.push(file);
    } catch {
      // Not there: the next candidate.
    }
  }
  return found;
}
