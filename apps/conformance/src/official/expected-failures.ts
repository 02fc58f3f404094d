/**
 * The expected failures of the official suite (a YAML file: `server:` and `client:` lists of scenario names, the
 * same shape as the suite's own `--expected-failures` file). A failure not listed fails the run; so does a listed
 * scenario that ran and passed everywhere it ran (a stale entry: remove it). A listed scenario that did not run, or
 * ran without exercising anything, is neither.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Leg, ScenarioOutcome } from './results.js';

/** The expected failures of each leg. */
export type ExpectedFailures = Readonly<Record<Leg, ReadonlySet<string>>>;

/** Reads an expected-failures file; throws a clear error for one that is not `{server?: string[], client?: string[]}`. */
export function loadExpectedFailures(file: string): ExpectedFailures {
  const data = parse(readFileSync(file, 'utf8')) as unknown;
  const list = (leg: Leg): Set<string> => {
    const value = (data as Record<string, unknown> | null)?.[leg] ?? [];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
      throw new Error(`${file}: '${leg}' must be a list of scenario names`);
    }
    return new Set(value as string[]);
  };
  if (data !== null && (typeof data !== 'object' || Array.isArray(data)))
    throw new Error(`${file}: expected a mapping with server: and client: lists`);
  return { server: list('server'), client: list('client') };
}

/** No expected failures. */
export const NO_EXPECTED_FAILURES: ExpectedFailures = { server: new Set(), client: new Set() };

/** What the expected failures say about the runs of one leg. */
export interface LegVerdict {
  readonly unexpected: readonly string[];
  readonly stale: readonly string[];
  /**
   * Scenarios the runs planned or score that left no result at all: neither passed nor failed, and the run is not
   * green with any (set by the run, which knows its plan; not by {@link judgeLeg}).
   */
  readonly notRun?: readonly string[];
}

/** Compares the outcomes of every run of `leg` with its expected failures. */
export function judgeLeg(expected: ReadonlySet<string>, runs: ReadonlyArray<ReadonlyMap<string, ScenarioOutcome>>): LegVerdict {
  const unexpected = new Set<string>();
  const ran = new Set<string>();
  const failed = new Set<string>();
  for (const outcomes of runs) {
    for (const outcome of outcomes.values()) {
      // A scenario that checked nothing neither confirms nor clears an expected failure.
      if (outcome.passed && !outcome.exercised) continue;
      ran.add(outcome.name);
      if (outcome.passed) continue;
      failed.add(outcome.name);
      if (!expected.has(outcome.name)) unexpected.add(outcome.name);
    }
  }
  const stale = [...expected].filter((name) => ran.has(name) && !failed.has(name));
  return { unexpected: [...unexpected].sort(), stale: stale.sort() };
}
