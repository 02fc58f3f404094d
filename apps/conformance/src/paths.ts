/**
 * Where the app's data lives. The same relative layout holds for `src/` (tests, tsx) and `dist/` (the built
 * CLI): this file is one directory below the package root either way.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `apps/conformance`: the package root (scenarios/, schemas/, servers.yaml, baseline.yaml). */
export const PACKAGE_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The monorepo root: server commands in servers.yaml are relative to it. */
export const REPO_ROOT: string = resolve(PACKAGE_ROOT, '..', '..');

/** The scenarios shipped with the app. */
export const SCENARIOS_DIR: string = join(PACKAGE_ROOT, 'scenarios');

/** The JSON Schemas of the app's YAML files. */
export const SCHEMAS_DIR: string = join(PACKAGE_ROOT, 'schemas');

/** The registry of reference servers. */
export const DEFAULT_REGISTRY: string = join(PACKAGE_ROOT, 'servers.yaml');

/** The expected-failures baseline. */
export const DEFAULT_BASELINE: string = join(PACKAGE_ROOT, 'baseline.yaml');

/** Where results go by default (git-ignored). */
export const DEFAULT_OUT_DIR: string = join(PACKAGE_ROOT, 'out');
