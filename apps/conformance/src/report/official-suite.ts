/**
 * The official MCP conformance suite's results, when it was run: another tool runs
 * `@modelcontextprotocol/conformance` against the servers and writes its results in the shape of
 * `results.schema.json#/definitions/officialSuite`; `--official-results <file>` puts them into this run's
 * `results.json` and HTML report, beside the matrix. They do not change the exit code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { SCHEMAS_DIR } from '../paths.js';

/**
 * The status of one official scenario; `not-exercised`: it ran no check of its own (it skipped itself), never a pass;
 * `not-run`: planned, but the suite left no result for it; `not-applicable`: the suite skipped it at the run's revision.
 */
export type OfficialStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'expected-fail' | 'not-exercised' | 'not-run' | 'not-applicable';

/** One scenario of the official suite, as it ended. */
export interface OfficialScenario {
  readonly name: string;
  readonly status: OfficialStatus;
  readonly scored?: boolean;
  readonly checks?: { readonly passed?: number; readonly failed?: number; readonly warnings?: number; readonly skipped?: number };
  readonly failures?: ReadonlyArray<{ readonly check?: string; readonly message: string }>;
}

/** One run of the official suite against one endpoint. */
export interface OfficialRun {
  readonly server: string;
  readonly transport?: string;
  readonly revision?: string;
  readonly suite?: string;
  readonly url?: string;
  readonly scenarios: readonly OfficialScenario[];
}

/** The official suite's results (`results.json` → `officialSuite`). */
export interface OfficialSuiteResults {
  readonly tool: string;
  readonly version: string;
  readonly command?: string;
  readonly startedAt?: string;
  readonly durationMs?: number;
  readonly runs: readonly OfficialRun[];
}

/** Thrown for a file that is not official-suite results. */
export class OfficialResultsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfficialResultsError';
  }
}

/** Reads and validates an official-suite results file. */
export function loadOfficialResults(file: string): OfficialSuiteResults {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new OfficialResultsError(`--official-results ${file}: ${(error as Error).message}`);
  }
  const ajv = new Ajv({ allErrors: true, strict: false });
  const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'results.schema.json'), 'utf8')) as { $id: string };
  ajv.addSchema(schema);
  const validate = ajv.compile({ $ref: `${schema.$id}#/definitions/officialSuite` });
  if (!validate(data)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`);
    throw new OfficialResultsError(`--official-results ${file} is not official-suite results: ${problems.join('; ')}`);
  }
  return data as OfficialSuiteResults;
}

/** Counts of an official run by status. */
export function officialCounts(run: OfficialRun): Record<OfficialStatus, number> {
  const counts: Record<OfficialStatus, number> = {
    pass: 0,
    fail: 0,
    warn: 0,
    skip: 0,
    'expected-fail': 0,
    'not-exercised': 0,
    'not-run': 0,
    'not-applicable': 0,
  };
  for (const scenario of run.scenarios) counts[scenario.status] += 1;
  return counts;
}
