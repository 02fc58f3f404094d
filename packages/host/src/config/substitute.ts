/**
 * `${…}` references in configuration strings, as the host formats write them:
 *
 * - `${env:NAME}` (VS Code, Cursor, SEP-2633), `${NAME}` and `${NAME:-default}` (Claude Code's `.mcp.json`);
 * - `${input:id}`: a value the user supplies (VS Code `inputs`; SEP-2633);
 * - `${value:text}`: a literal (SEP-2633), useful at the end of a chain;
 * - chains `${env:A | env:B | value:default}`: the first reference that resolves to a non-empty value (SEP-2633);
 * - the predefined `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}` and `${/}`.
 *
 * Any other scheme (`op://…`, `command:…`) is refused with a message naming the field. Values read from the
 * environment or from inputs are reported as secrets so that nothing the host prints can show them.
 */

import { DEFAULT_INHERITED_ENV_VARS } from '@wiremcp/transport-stdio';

/**
 * Variables whose values are not secrets: the ones every spawned server inherits anyway (PATH, HOME, USER, the
 * locale…). Hiding them would turn every path in every message into `[redacted]`.
 */
const PUBLIC_VARIABLES = new Set(DEFAULT_INHERITED_ENV_VARS);

/** What references resolve against. */
export interface SubstitutionContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** The folder `${workspaceFolder}` names (the project of a `.vscode/` or `.cursor/` file; else the file's folder). */
  readonly workspaceFolder: string;
  readonly pathSeparator: string;
  /** The value of `${input:id}`, or `undefined` when none is available. */
  input(id: string): Promise<string | undefined>;
}

/** A resolved string and the secret values it now contains. */
export interface Substituted {
  readonly value: string;
  readonly secrets: readonly string[];
}

/** A reference that cannot be resolved; the message names references, never values. */
export class SubstitutionError extends Error {
  override readonly name = 'SubstitutionError';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_REFERENCE_SHOWN = 60;

function shown(reference: string): string {
  const text = reference.length > MAX_REFERENCE_SHOWN ? `${reference.slice(0, MAX_REFERENCE_SHOWN)}…` : reference;
  return JSON.stringify(`\${${text}}`);
}

function predefined(name: string, context: SubstitutionContext): string | undefined {
  switch (name) {
    case 'userHome':
      return context.home;
    case 'workspaceFolder':
      return context.workspaceFolder;
    case 'workspaceFolderBasename': {
      const parts = context.workspaceFolder.split(/[\\/]+/).filter(Boolean);
      return parts.at(-1) ?? '';
    }
    case 'pathSeparator':
    case '/':
      return context.pathSeparator;
    default:
      return undefined;
  }
}

interface Resolved {
  readonly value: string | undefined;
  /** Hidden in everything the host prints. */
  readonly secret: boolean;
  /** Read from the environment or an input: empty means "not set" (the next element of a chain is tried). */
  readonly lookup?: boolean;
}

async function resolveOne(element: string, context: SubstitutionContext, whole: string): Promise<Resolved> {
  const fixed = predefined(element, context);
  if (fixed !== undefined) return { value: fixed, secret: false };
  const dash = element.indexOf(':-');
  if (dash > 0 && IDENTIFIER.test(element.slice(0, dash))) {
    const value = context.env[element.slice(0, dash)];
    return value
      ? { value, secret: !PUBLIC_VARIABLES.has(element.slice(0, dash)), lookup: true }
      : { value: element.slice(dash + 2), secret: false };
  }
  if (IDENTIFIER.test(element)) return { value: context.env[element], secret: !PUBLIC_VARIABLES.has(element), lookup: true };
  const colon = element.indexOf(':');
  const scheme = colon > 0 ? element.slice(0, colon) : '';
  const rest = element.slice(colon + 1).trim();
  switch (scheme) {
    case 'env':
      if (!IDENTIFIER.test(rest)) throw new SubstitutionError(`${shown(whole)} does not name an environment variable`);
      return { value: context.env[rest], secret: !PUBLIC_VARIABLES.has(rest), lookup: true };
    case 'input':
      if (rest === '') throw new SubstitutionError(`${shown(whole)} does not name an input`);
      return { value: await context.input(rest), secret: true, lookup: true };
    case 'value':
      return { value: element.slice(colon + 1), secret: false };
    default:
      throw new SubstitutionError(
        `${shown(whole)} is not a reference this host resolves (supported: env:NAME, input:id, value:text, NAME, ` +
          'NAME:-default, userHome, workspaceFolder, workspaceFolderBasename, pathSeparator)',
      );
  }
}

function describeMissing(elements: readonly string[]): string {
  const names = elements.map((element) => {
    if (element.startsWith('env:')) return `environment variable ${element.slice(4).trim()}`;
    if (element.startsWith('input:')) return `input ${JSON.stringify(element.slice(6).trim())}`;
    return `environment variable ${element}`;
  });
  return `${names.join(', then ')} ${names.length === 1 ? 'is' : 'are'} not set`;
}

async function resolveReference(body: string, context: SubstitutionContext): Promise<Resolved> {
  const elements = body.split('|').map((element) => element.trim());
  if (elements.some((element) => element === '')) throw new SubstitutionError(`${shown(body)} has an empty reference`);
  for (const element of elements) {
    const resolved = await resolveOne(element, context, body);
    // SEP-2633: the first element that resolves to a non-empty value wins; a predefined value or literal always does.
    if (resolved.value !== undefined && (resolved.value !== '' || resolved.lookup !== true)) return resolved;
  }
  throw new SubstitutionError(`${shown(body)}: ${describeMissing(elements)}`);
}

/** True when `text` contains a `${` reference. */
export function hasReference(text: string): boolean {
  return text.includes('${');
}

/**
 * Resolves every reference in `text`. Throws a {@link SubstitutionError} (naming the reference, never a value) for
 * an unknown scheme, an unterminated `${`, or a reference that resolves to nothing.
 */
export async function substitute(text: string, context: SubstitutionContext): Promise<Substituted> {
  if (!hasReference(text)) return { value: text, secrets: [] };
  let out = '';
  const secrets: string[] = [];
  let index = 0;
  while (index < text.length) {
    const start = text.indexOf('${', index);
    if (start < 0) {
      out += text.slice(index);
      break;
    }
    const end = text.indexOf('}', start + 2);
    if (end < 0) throw new SubstitutionError(`an unterminated "\${" at character ${start + 1}`);
    out += text.slice(index, start);
    const resolved = await resolveReference(text.slice(start + 2, end).trim(), context);
    out += resolved.value;
    if (resolved.secret && resolved.value) secrets.push(resolved.value);
    index = end + 1;
  }
  return { value: out, secrets };
}
