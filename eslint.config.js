// Guard rails run by `npm test` (after the typecheck): no explicit `any`, no floating promises, files and lines
// of a readable size. Formatting itself is Prettier's (`.prettierrc.json`), checked in the same step.
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'apps/conformance/out/**', 'apps/bench/out/**', '**/*.d.mts'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@stylistic': stylistic },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@stylistic/max-len': [
        'error',
        { code: 160, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test-util.ts', '**/test/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
);
