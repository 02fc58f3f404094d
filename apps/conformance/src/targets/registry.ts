/**
 * The registry of reference servers (`servers.yaml`): id, command, transports, revisions, declared capabilities
 * and features. A server whose files are not there yet (not built, or not written yet) stays in the matrix,
 * with every cell skipped and the reason said.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { REPO_ROOT } from '../paths.js';
import { expandRevisions } from '../scenario/selectors.js';
import { TRANSPORTS, type TransportId } from '../scenario/scenario-types.js';
import { formatProblem, loadYamlFile } from '../scenario/yaml-file.js';
import type { Target, TargetTransport } from './target.js';

interface RawTransport {
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  revisions?: string | string[];
}

interface RawServer {
  id: string;
  title: string;
  default?: boolean;
  command: string[];
  requiresFiles?: string[];
  env?: Record<string, string>;
  revisions?: 'all' | 'legacy' | 'modern' | string[];
  capabilities?: string[];
  features?: string[];
  limits?: Record<string, number>;
  serverInfo?: { name: string; version?: string };
  transports: Partial<Record<TransportId, RawTransport>>;
}

/** A registry entry: the target plus whether it runs by default. */
export interface RegistryServer {
  readonly target: Target;
  readonly isDefault: boolean;
}

/** Resolves argv entries that look like repository paths (contain a `/`, not absolute, not flags) against the repo root. */
function resolveArgv(argv: readonly string[], root: string): string[] {
  return argv.map((arg, index) => {
    const looksLikePath = arg.includes('/') && !arg.startsWith('-') && !isAbsolute(arg) && !arg.includes('{{');
    return index > 0 && looksLikePath ? join(root, arg) : arg;
  });
}

/** Thrown when the registry file itself is broken: the run cannot mean anything without it. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** Loads and validates a registry file. Commands are resolved against `root` (the repository root by default). */
export function loadRegistry(file: string, root: string = REPO_ROOT): RegistryServer[] {
  const loaded = loadYamlFile<{ servers: RawServer[] }>(file, 'servers.schema.json');
  if (!loaded.data) throw new RegistryError(loaded.problems.map((problem) => formatProblem(file, problem)).join('\n'));
  const ids = new Set<string>();
  return loaded.data.servers.map((raw, index) => {
    if (ids.has(raw.id))
      throw new RegistryError(
        formatProblem(file, {
          path: `/servers/${index}/id`,
          message: `duplicate server id ${raw.id}`,
          ...loaded.locate(`/servers/${index}/id`),
        }),
      );
    ids.add(raw.id);
    const command = resolveArgv(raw.command, root);
    const missing = (raw.requiresFiles ?? []).filter((path) => !existsSync(join(root, path)));
    const transports: TargetTransport[] = [];
    for (const id of TRANSPORTS) {
      const spec = raw.transports[id];
      if (spec === undefined) continue;
      const argv = [...command, ...(spec.args ?? [])];
      const env = { ...raw.env, ...spec.env };
      if (spec.url === undefined) transports.push({ id, kind: 'stdio', command: argv, cwd: root, env });
      else
        transports.push({
          id,
          kind: 'http',
          url: spec.url,
          start: { command: argv, cwd: root, env },
          ...(spec.revisions === undefined ? {} : { revisions: expandRevisions(spec.revisions) }),
        });
    }
    const target: Target = {
      id: raw.id,
      title: raw.title,
      origin: 'registry',
      transports,
      revisions: expandRevisions(raw.revisions ?? 'all'),
      capabilities: new Set(raw.capabilities ?? []),
      features: new Set(raw.features ?? []),
      limits: raw.limits ?? {},
      ...(missing.length === 0 ? {} : { unavailable: `not built or not there yet: ${missing.join(', ')} is missing` }),
      ...(raw.serverInfo === undefined ? {} : { serverInfo: raw.serverInfo }),
    };
    return { target, isDefault: raw.default ?? true };
  });
}
