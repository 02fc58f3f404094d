/**
 * A `SKILL.md`'s frontmatter: the YAML between the opening `---` line and the next `---` line, read with the YAML
 * 1.2 core schema (the `yaml` package: maintained, spec-complete, no dependencies) into a JSON object. Both sides
 * use this one reader, so a server publishes exactly what a client will compare against.
 */
import { parse } from 'yaml';
import type { SkillFrontmatter } from './wire.js';

/** The frontmatter block is bounded: nothing sane needs more, and YAML parsing of a huge block costs memory. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** Why a frontmatter block was refused. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/** The frontmatter and the body after it; throws {@link FrontmatterError} when there is no valid block. */
export function splitSkillMarkdown(text: string): { frontmatter: Record<string, unknown>; body: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = BLOCK.exec(source.length > MAX_FRONTMATTER_BYTES * 2 ? source.slice(0, MAX_FRONTMATTER_BYTES * 2) : source);
  if (!match) throw new FrontmatterError('SKILL.md does not begin with a YAML frontmatter block between --- lines');
  const yaml = match[1]!;
  if (yaml.length > MAX_FRONTMATTER_BYTES) throw new FrontmatterError(`the frontmatter is larger than ${MAX_FRONTMATTER_BYTES} bytes`);
  let value: unknown;
  try {
    // No aliases: an alias bomb would expand to far more than the text; the core schema gives JSON-compatible values.
    value = parse(yaml, { schema: 'core', maxAliasCount: 0, uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw new FrontmatterError(`the frontmatter is not valid YAML: ${firstLine(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new FrontmatterError('the frontmatter is not a YAML mapping');
  return { frontmatter: value as Record<string, unknown>, body: source.slice(match[0].length) };
}

/**
 * Checks what the extension requires of a frontmatter (non-empty string `name` and `description`, a name that
 * follows the Agent Skills naming rules); returns the problems, empty when there are none.
 */
export function frontmatterProblems(frontmatter: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof frontmatter.name !== 'string' || frontmatter.name === '') problems.push('the frontmatter has no non-empty string "name"');
  else if (!isSkillName(frontmatter.name)) {
    problems.push(`the name "${frontmatter.name.slice(0, 80)}" breaks the naming rules (1-64 of a-z, 0-9 and single inner hyphens)`);
  }
  if (typeof frontmatter.description !== 'string' || frontmatter.description === '') {
    problems.push('the frontmatter has no non-empty string "description"');
  }
  return problems;
}

/** True for a frontmatter that {@link frontmatterProblems} accepts. */
export function isSkillFrontmatter(frontmatter: Record<string, unknown>): frontmatter is SkillFrontmatter {
  return frontmatterProblems(frontmatter).length === 0;
}

/** The Agent Skills naming rules: 1–64 characters, lowercase letters, digits and hyphens, no leading, trailing or double hyphen. */
export function isSkillName(name: string): boolean {
  return name.length <= 64 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name);
}

/**
 * The fields where two frontmatters differ, one line each (`name: file="a" entry="b"`); empty when they are equal
 * as JSON values (key order ignored).
 */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const differences: string[] = [];
  for (const key of new Set([...Object.keys(file), ...Object.keys(entry)])) {
    if (!jsonEqual(file[key], entry[key])) {
      differences.push(`${key.slice(0, 80)}: file=${preview(file[key])} entry=${preview(entry[key])}`);
    }
  }
  return differences;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => jsonEqual(item, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

function preview(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!.slice(0, 200);
}
