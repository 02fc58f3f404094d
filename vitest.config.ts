import { defineConfig } from 'vitest/config';

// One vitest run for the whole repository. Workspace packages resolve to their TypeScript sources
// through the `wiremcp-source` export condition, so unit tests need no build; integration tests that
// spawn a server process use the built `dist` (the test command builds first).
export default defineConfig({
  resolve: { conditions: ['wiremcp-source'] },
  ssr: { resolve: { conditions: ['wiremcp-source'] } },
  test: {
    include: ['{packages,servers,apps,tests}/*/{src,test}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
