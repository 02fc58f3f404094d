import { readFileSync } from 'node:fs';

/**
 * The version of the `wiremcp` command (`wiremcp --version`, the client and proxy info it sends): package.json's,
 * read once at start-up, so that `changeset version` is all a release changes (a constant compiled in went stale
 * at the first version bump). Found by walking up from this module, which runs from src/, dist/ or dist/bundle/.
 */
export const VERSION: string = ownVersion();

function ownVersion(): string {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 4; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@wiremcp/cli' && manifest.version) return manifest.version;
    } catch {
      // no package.json at this level: keep walking up
    }
    dir = new URL('..', dir);
  }
  throw new Error('@wiremcp/cli: its package.json was not found next to its code');
}
