/**
 * Loads `scenarios/<area>/<id>.yaml`: schema validation (ajv), then the checks a schema cannot express (one
 * action per step, modifiers that fit the action, patterns with known operators, stdio-only steps in stdio-only
 * scenarios, ids unique and equal to file names). A broken file is never skipped silently: it comes back as a
 * {@link ScenarioLoadError} naming the file, the JSON path and the line.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { checkPattern } from '../match/operators.js';
import { expandRevisions, expandTransports } from './selectors.js';
import type { Scenario, ScenarioLoadError, ServerSelector, Step, TransportId } from './scenario-types.js';
import { isHttpTransport, isStdioTransport } from './scenario-types.js';
import { loadYamlFile, type YamlProblem } from './yaml-file.js';

/** The actions a step can have; a step has exactly one. */
export const STEP_ACTIONS = [
  'handshake',
  'send',
  'sendPayload',
  'sendRaw',
  'expect',
  'expectNone',
  'closeStdin',
  'expectExit',
  'reply',
  'cancel',
  'paginate',
  'assert',
  'sleep',
  'http',
] as const;

/** The action of a step. */
export type StepAction = (typeof STEP_ACTIONS)[number];

/** Modifiers and the actions they belong to. */
const MODIFIERS: Record<string, readonly StepAction[]> = {
  meta: ['send'],
  headers: ['send', 'sendPayload'],
  status: ['send', 'sendPayload', 'expect'],
  timeoutMs: ['expect'],
  consume: ['expect'],
};

const STDIO_ONLY: readonly StepAction[] = ['sendRaw', 'closeStdin', 'expectExit'];

/** The action key of a step (the loader guarantees there is exactly one). */
export function stepAction(step: Step): StepAction {
  for (const action of STEP_ACTIONS) if (action in step) return action;
  throw new Error('step without an action');
}

interface RawScenario {
  id: string;
  title: string;
  area: string;
  spec: string | string[];
  level?: 'must' | 'should' | 'may';
  process?: 'fresh' | 'first' | 'last';
  description?: string;
  revisions?: string | string[];
  servers?: 'any' | string[] | { requires: { capabilities?: string[]; features?: string[] } };
  transports?: 'all' | string[];
  client?: { capabilities?: Record<string, unknown> };
  timeoutMs?: number;
  steps: Record<string, unknown>[];
}

function selectorOf(servers: RawScenario['servers']): ServerSelector {
  if (servers === undefined || servers === 'any') return { kind: 'any' };
  if (Array.isArray(servers)) return { kind: 'ids', ids: servers };
  return { kind: 'requires', capabilities: servers.requires.capabilities ?? [], features: servers.requires.features ?? [] };
}

function checkSteps(raw: RawScenario, transports: readonly TransportId[], problems: YamlProblem[]): void {
  raw.steps.forEach((step, index) => {
    const at = `/steps/${index}`;
    const actions = STEP_ACTIONS.filter((action) => action in step);
    if (actions.length !== 1) {
      problems.push({
        path: at,
        message:
          actions.length === 0
            ? `a step needs one action (${STEP_ACTIONS.join(', ')})`
            : `a step has exactly one action, found ${actions.join(' and ')}`,
      });
      return;
    }
    const action = actions[0]!;
    for (const [modifier, allowed] of Object.entries(MODIFIERS)) {
      if (modifier in step && !allowed.includes(action)) {
        problems.push({
          path: `${at}/${modifier}`,
          message: `'${modifier}' does not apply to a ${action} step (only ${allowed.join(', ')})`,
        });
      }
    }
    const stdioOnly = STDIO_ONLY.includes(action) && step['when'] === undefined;
    if (stdioOnly && transports.some((transport) => !isStdioTransport(transport))) {
      problems.push({
        path: `${at}/${action}`,
        message: `${action} works on stdio only: add "transports: [stdio]" to the scenario (or a when: {transports: [...]} to the step)`,
      });
    }
    const patterns: Array<[string, unknown]> = [];
    if (action === 'expect') patterns.push([`${at}/expect`, step['expect']]);
    if (action === 'http' && (step['http'] as { response?: unknown }).response !== undefined)
      patterns.push([`${at}/http/response`, (step['http'] as { response?: unknown }).response]);
    if (action === 'http' && transports.some((transport) => !isHttpTransport(transport)))
      problems.push({
        path: `${at}/http`,
        message: 'http works on HTTP transports only: add "transports: [http]" (or [streamable-http-any]) to the scenario',
      });
    if (action === 'http' && 'padToBytes' in (step['http'] as object) && !('json' in (step['http'] as object)))
      problems.push({ path: `${at}/http`, message: 'padToBytes needs json' });
    if (action === 'http' && 'body' in (step['http'] as object) && 'json' in (step['http'] as object))
      problems.push({ path: `${at}/http`, message: 'give body or json, not both' });
    if (action === 'assert') patterns.push([`${at}/assert/match`, (step['assert'] as { match: unknown }).match]);
    if (action === 'expectNone' && typeof step['expectNone'] === 'object') {
      const none = step['expectNone'] as { match?: unknown };
      if (none.match !== undefined) patterns.push([`${at}/expectNone/match`, none.match]);
    }
    if (action === 'expectExit') {
      const exit = step['expectExit'] as { code?: unknown };
      if (exit.code !== undefined) patterns.push([`${at}/expectExit/code`, exit.code]);
    }
    if ('status' in step) patterns.push([`${at}/status`, step['status']]);
    for (const [path, pattern] of patterns) problems.push(...checkPattern(pattern, path));
    if (action === 'sendPayload') {
      const payload = step['sendPayload'] as Record<string, unknown>;
      const given = ['text', 'base64', 'json'].filter((key) => key in payload);
      if (given.length !== 1) problems.push({ path: `${at}/sendPayload`, message: 'give exactly one of text, base64 or json' });
      if ('padToBytes' in payload && !('json' in payload))
        problems.push({ path: `${at}/sendPayload/padToBytes`, message: 'padToBytes needs json' });
    }
    if (action === 'reply') {
      const reply = step['reply'] as Record<string, unknown>;
      if ('result' in reply === 'error' in reply)
        problems.push({ path: `${at}/reply`, message: 'a reply has either a result or an error' });
    }
  });
}

/**
 * Parses and checks one scenario file. `file` is absolute; `root` is the scenarios directory (the file must
 * sit in `<root>/<area>/`).
 */
export function loadScenarioFile(file: string, root: string): Scenario | ScenarioLoadError {
  const name = relative(root, file).split(sep).join('/');
  const loaded = loadYamlFile<RawScenario>(file, 'scenario.schema.json');
  if (!loaded.data) return { file: name, problems: loaded.problems };
  const raw = loaded.data;
  const problems: YamlProblem[] = [];
  const expectedId = basename(file, '.yaml');
  if (raw.id !== expectedId) problems.push({ path: '/id', message: `must equal the file name (${expectedId})` });
  const area = basename(dirname(file));
  if (dirname(file) === root) problems.push({ path: '', message: 'a scenario must sit in an area directory: scenarios/<area>/<id>.yaml' });
  else if (raw.area !== area) problems.push({ path: '/area', message: `must equal its directory (${area})` });
  const revisions = expandRevisions(raw.revisions ?? 'all');
  if (revisions.length === 0) problems.push({ path: '/revisions', message: 'selects no revision' });
  const transports = expandTransports(raw.transports ?? 'all');
  checkSteps(raw, transports, problems);
  if (problems.length > 0) return { file: name, problems: problems.map((problem) => ({ ...problem, ...loaded.locate(problem.path) })) };
  return {
    id: raw.id,
    title: raw.title,
    area: raw.area,
    spec: Array.isArray(raw.spec) ? raw.spec : [raw.spec],
    level: raw.level ?? 'must',
    ...(raw.process === undefined ? {} : { process: raw.process }),
    ...(raw.description === undefined ? {} : { description: raw.description }),
    revisions,
    servers: selectorOf(raw.servers),
    transports,
    clientCapabilities: raw.client?.capabilities ?? {},
    timeoutMs: raw.timeoutMs ?? 5000,
    steps: raw.steps as unknown as Step[],
    file: name,
  };
}

function yamlFiles(directory: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(directory).sort()) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) out.push(...yamlFiles(path));
    else if (entry.endsWith('.yaml') || entry.endsWith('.yml')) out.push(path);
  }
  return out;
}

/** Every scenario under `root`, plus the files that failed to load. Ids must be unique across files. */
export function loadScenarios(root: string): { scenarios: Scenario[]; errors: ScenarioLoadError[] } {
  const scenarios: Scenario[] = [];
  const errors: ScenarioLoadError[] = [];
  const seen = new Map<string, string>();
  for (const file of yamlFiles(root)) {
    if (file.endsWith('.yml')) {
      errors.push({ file: relative(root, file), problems: [{ path: '', message: 'scenario files end in .yaml' }] });
      continue;
    }
    const result = loadScenarioFile(file, root);
    if ('problems' in result) {
      errors.push(result);
      continue;
    }
    const previous = seen.get(result.id);
    if (previous !== undefined) {
      errors.push({ file: result.file, problems: [{ path: '/id', message: `duplicate id, also used by ${previous}` }] });
      continue;
    }
    seen.set(result.id, result.file);
    scenarios.push(result);
  }
  return { scenarios, errors };
}
