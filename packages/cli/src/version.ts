import { packageVersion } from '@wiremcp/process';

/**
 * The version of the `wiremcp` command (`wiremcp --version`, the client and proxy info it sends): package.json's,
 * read once at start-up, so that `changeset version` is all a release changes.
 */
export const VERSION: string = packageVersion(import.meta.url, '@wiremcp/cli');
