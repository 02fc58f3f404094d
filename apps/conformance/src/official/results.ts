/**
 * Reading what one run of the official suite wrote (`-o <dir>`: `[server-]<scenario>-<timestamp>/checks.json`, auth
 * scenarios under `auth/`) into one status per scenario, and its requirement sets (`requirements/<revision>.yaml`:
 * the scored scenarios of each leg and the ones run but not scored).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** A leg of the suite. */
export type Leg = 'server' | 'client';

/** One check as `checks.json` holds it. */
interface Check {
  readonly id?: string;
  readonly status?: string;
  readonly errorMessage?: string;
}

/**
 * One scenario as it ended: passed unless a check is a FAILURE. `skipped` counts checks that ran nothing (a
 * scenario whose checks all skipped is reported as skipped, never as passed).
 */
export interface ScenarioOutcome {
  readonly name: string;
  readonly passed: boolean;
  readonly checks: { readonly passed: number; readonly failed: number; readonly warnings: number; readonly skipped: number };
  readonly failures: ReadonlyArray<{ readonly check?: string; readonly message: string }>;
}

const TIMESTAMP = /-\d{4}-\d\d-\d\dT[\d-]+Z$/;

/** Reads every scenario result under `dir` (the latest one of a scenario when it ran twice). */
export function readOutcomes(dir: string, leg: Leg): Map<string, ScenarioOutcome> {
  const found = new Map<string, { at: string; outcome: ScenarioOutcome }>();
  const walk = (current: string, prefix: string): void => {
    if (!existsSync(current)) return;
    for (const entry of readdirSync(current).sort()) {
      const path = join(current, entry);
      if (!statSync(path).isDirectory()) continue;
      const checksFile = join(path, 'checks.json');
      if (!existsSync(checksFile)) {
        walk(path, `${prefix}${entry}/`);
        continue;
      }
      let name = entry.replace(TIMESTAMP, '');
      if (leg === 'server') name = name.replace(/^server-/, '');
      const at = TIMESTAMP.exec(entry)?.[0] ?? '';
      const checks = JSON.parse(readFileSync(checksFile, 'utf8')) as Check[];
      const outcome = outcomeOf(`${prefix}${name}`, Array.isArray(checks) ? checks : []);
      const previous = found.get(outcome.name);
      if (!previous || previous.at <= at) found.set(outcome.name, { at, outcome });
    }
  };
  walk(dir, '');
  return new Map([...found].map(([name, { outcome }]) => [name, outcome]));
}

function outcomeOf(name: string, checks: readonly Check[]): ScenarioOutcome {
  const failed = checks.filter((check) => check.status === 'FAILURE');
  return {
    name,
    passed: failed.length === 0,
    checks: {
      passed: checks.filter((check) => check.status === 'SUCCESS').length,
      failed: failed.length,
      warnings: checks.filter((check) => check.status === 'WARNING').length,
      skipped: checks.filter((check) => check.status === 'SKIPPED').length,
    },
    failures: failed.slice(0, 10).map((check) => ({
      ...(check.id === undefined ? {} : { check: check.id }),
      message: (check.errorMessage ?? 'failed').slice(0, 500),
    })),
  };
}

/** The requirement set of one revision: the scored scenarios of each leg, and those run but not scored. */
export interface Requirements {
  readonly scored: Readonly<Record<Leg, readonly string[]>>;
  readonly notScored: Readonly<Record<Leg, readonly string[]>>;
}

/** Reads `requirements/<revision>.yaml` of the installed suite. */
export function readRequirements(packageDir: string, revision: string): Requirements {
  const data = parse(readFileSync(join(packageDir, 'requirements', `${revision}.yaml`), 'utf8')) as {
    server?: string[];
    client?: string[];
    not_scored?: Array<{ scenario: string; leg: Leg }>;
  };
  const notScored = (leg: Leg) => (data.not_scored ?? []).filter((entry) => entry.leg === leg).map((entry) => entry.scenario);
  return {
    scored: { server: data.server ?? [], client: data.client ?? [] },
    notScored: { server: notScored('server'), client: notScored('client') },
  };
}
