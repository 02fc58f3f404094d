/**
 * The checks a client makes of a skill entry before using it: the shape the extension defines, a `SKILL.md` URI
 * whose last path segment is the frontmatter's name, a complete manifest that lists the `SKILL.md` itself, files
 * inside the skill's directory, each once, with well-formed digests and sizes.
 */
import { isDigest } from './digest.js';
import { frontmatterProblems } from './frontmatter.js';
import { SKILL_MD, type Skill } from './wire.js';

/** The problem with `value` as a skill entry, or `undefined` when it is a valid one. */
export function entryProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'the entry is not an object';
  const entry = value as Record<string, unknown>;
  if (typeof entry.uri !== 'string' || !entry.uri.endsWith(`/${SKILL_MD}`)) return 'its uri is not the URI of a SKILL.md';
  const frontmatter = entry.frontmatter;
  if (frontmatter === null || typeof frontmatter !== 'object' || Array.isArray(frontmatter)) return 'its frontmatter is not an object';
  const problems = frontmatterProblems(frontmatter as Record<string, unknown>);
  if (problems.length > 0) return problems[0];
  const root = entry.uri.slice(0, -SKILL_MD.length);
  const last = decodeSafe(root.slice(0, -1).slice(root.slice(0, -1).lastIndexOf('/') + 1));
  if (last !== (frontmatter as Record<string, unknown>).name)
    return `the last segment of its uri is not its name "${String((frontmatter as Record<string, unknown>).name)}"`;
  const resources = entry.resources;
  if (resources === 'dynamic') return undefined;
  if (!Array.isArray(resources)) return 'its resources are neither an array nor "dynamic"';
  const seen = new Set<string>();
  for (const [index, file] of resources.entries()) {
    if (file === null || typeof file !== 'object') return `resources[${index}] is not an object`;
    const { uri, digest, size } = file as Record<string, unknown>;
    if (typeof uri !== 'string' || !uri.startsWith(root)) return `resources[${index}].uri is not inside the skill`;
    if (!isDigest(digest)) return `resources[${index}].digest is not sha256:<64 lowercase hex>`;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return `resources[${index}].size is not a byte count`;
    const key = normalise(uri);
    if (seen.has(key)) return `resources lists ${uri.slice(0, 200)} twice`;
    seen.add(key);
  }
  if (!seen.has(normalise(entry.uri))) return 'its resources do not list its SKILL.md';
  return undefined;
}

/** True when `value` is a valid entry. */
export function isSkillEntry(value: unknown): value is Skill {
  return entryProblem(value) === undefined;
}

/** A URI with each path segment decoded, so two spellings of one file compare equal. */
export function normalise(uri: string): string {
  const scheme = uri.indexOf('://');
  if (scheme < 0) return uri;
  return (
    uri.slice(0, scheme + 3) +
    uri
      .slice(scheme + 3)
      .split('/')
      .map(decodeSafe)
      .join('/')
  );
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
