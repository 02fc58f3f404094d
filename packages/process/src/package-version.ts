import { readFileSync } from 'node:fs';

/**
 * The version of the package `packageName`, read from its package.json, found by walking up at most four levels from
 * `moduleUrl` (a module of that package: `import.meta.url` from src/, dist/ or dist/bundle/). Programs and servers
 * report this as their version (`--version`, `serverInfo`, `clientInfo`), so that `changeset version` is all a
 * release changes: a constant compiled in goes stale at the first bump. Throws when no package.json of that name is
 * found: a package copied without its manifest is a packaging error, not something to paper over with a guess.
 */
export function packageVersion(moduleUrl: string | URL, packageName: string): string {
  let dir = new URL('.', moduleUrl);
  for (let depth = 0; depth < 4; depth += 1) {
    let text: string | undefined;
    try {
      text = readFileSync(new URL('package.json', dir), 'utf8');
    } catch {
      // no package.json at this level: keep walking up
    }
    if (text !== undefined) {
      const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (manifest.name === packageName && typeof manifest.version === 'string' && manifest.version !== '') return manifest.version;
    }
    dir = new URL('..', dir);
  }
  throw new Error(`${packageName}: its package.json was not found within four directories above ${String(moduleUrl)}`);
}
