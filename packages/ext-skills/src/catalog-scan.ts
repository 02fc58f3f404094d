/**
 * One scan of a store into a catalogue snapshot. The walk is bounded everywhere — entries per directory, depth,
 * files and bytes per skill, entries in all — so a hostile tree (a directory of 100,000 files, a 100 MB `SKILL.md`,
 * a link to `/etc`) costs a bounded amount of work and refuses only the skill it is in, with a warning that says why.
 * Links and special files are never followed or read: they are reported and left out.
 */
import { sha256Digest } from './digest.js';
import { frontmatterProblems, splitSkillMarkdown } from './frontmatter.js';
import { mediaTypeOf } from './media-types.js';
import { uriOf } from './skill-uri.js';
import { SkillStoreError, type SkillStore, type SkillStoreEntry } from './store.js';
import { DIRECTORY_MIME_TYPE, SKILL_LIMITS, SKILL_MD, type DirectoryEntry, type Skill, type SkillFrontmatter } from './wire.js';

/** A problem found while scanning: `path` is relative to the store's root. */
export interface SkillWarning {
  readonly path: string;
  readonly message: string;
}

/** Limits of a scan. */
export interface ScanLimits {
  /** Files per skill, `SKILL.md` included (default 512, the extension's limit). */
  files: number;
  /** Bytes per skill, summed over its files (default 16 MiB, the extension's limit). */
  bytes: number;
  /** Entries read from one directory before it is refused (default 4096). */
  entriesPerDirectory: number;
  /** Directory depth below the root (default 16). */
  depth: number;
  /** Entries visited in the whole tree before the scan stops descending (default 100,000). */
  entries: number;
}

/** The default limits. */
export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  files: SKILL_LIMITS.files,
  bytes: SKILL_LIMITS.bytes,
  entriesPerDirectory: 4096,
  depth: 16,
  entries: 100_000,
};

/** A catalogued file. */
export interface FileRecord {
  readonly uri: string;
  /** Path in the store. */
  readonly path: string;
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
}

/** What one scan found. */
export interface ScanResult {
  /** Accepted skills, sorted by URI. */
  readonly skills: Skill[];
  readonly files: Map<string, FileRecord>;
  /** Directory URI → its direct children, for every directory from a skill's prefix down. */
  readonly directories: Map<string, DirectoryEntry[]>;
  readonly warnings: SkillWarning[];
}

class SkillBuild {
  readonly files: string[] = [];
  refusal: string | undefined;
  constructor(readonly dir: string) {}
}

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/** Scans `store` into skills whose URIs start with `base` (e.g. `skill://` or `skill://acme/`). */
export async function scanStore(store: SkillStore, base: string, limits: ScanLimits): Promise<ScanResult> {
  const warnings: SkillWarning[] = [];
  const builds: SkillBuild[] = [];
  let visited = 0;

  const refuse = (stack: readonly SkillBuild[], message: string, path: string): void => {
    const live = stack.filter((build) => build.refusal === undefined);
    if (live.length === 0) warnings.push({ path, message });
    for (const build of live) build.refusal = message;
  };

  const walk = async (dir: string, depth: number, outer: readonly SkillBuild[]): Promise<void> => {
    let entries: SkillStoreEntry[];
    try {
      entries = await store.list(dir, limits.entriesPerDirectory);
    } catch (error) {
      refuse(outer, `could not list ${dir || 'the root'}: ${storeMessage(error)}`, dir);
      return;
    }
    if (entries.length > limits.entriesPerDirectory) {
      refuse(outer, `${dir || 'the root'} has more than ${limits.entriesPerDirectory} entries`, dir);
      return;
    }
    visited += entries.length;
    let stack = outer;
    if (entries.some((entry) => entry.name === SKILL_MD && entry.kind === 'file')) {
      if (dir === '')
        warnings.push({ path: SKILL_MD, message: 'a SKILL.md at the root is ignored: each skill is a folder below the root' });
      else {
        const build = new SkillBuild(dir);
        builds.push(build);
        stack = [...outer, build];
      }
    }
    if (stack.length > 0 && stack.every((build) => build.refusal !== undefined)) return;
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (visited > limits.entries) {
          refuse(stack, `the tree has more than ${limits.entries} entries; stopped at ${path}`, path);
          continue;
        }
        if (depth + 1 > limits.depth) refuse(stack, `${path} is deeper than ${limits.depth} levels`, path);
        else await walk(path, depth + 1, stack);
      } else if (entry.kind === 'file') {
        for (const build of stack) {
          if (build.refusal !== undefined) continue;
          build.files.push(path);
          if (build.files.length > limits.files) build.refusal = `it has more than ${limits.files} files`;
        }
      } else {
        warnings.push({ path, message: `${entry.kind === 'link' ? 'a symbolic link' : 'not a regular file'}: never followed or served` });
      }
      if (stack.length > 0 && stack.every((build) => build.refusal !== undefined)) return;
    }
  };

  await walk('', 0, []);

  const digests = new Map<string, { digest: string; size: number }>();
  const skills: Skill[] = [];
  const files = new Map<string, FileRecord>();
  const accepted: Array<{ build: SkillBuild; skill: Skill }> = [];
  for (const build of builds) {
    if (build.refusal !== undefined) {
      warnings.push({ path: build.dir, message: `skill refused: ${build.refusal}` });
      continue;
    }
    try {
      const skill = await buildSkill(store, base, build, limits, digests);
      accepted.push({ build, skill });
      skills.push(skill);
    } catch (error) {
      warnings.push({ path: build.dir, message: `skill refused: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  for (const { build } of accepted) {
    for (const path of build.files) {
      const uri = uriOf(base, path);
      if (!files.has(uri)) files.set(uri, { uri, path, ...digests.get(path)!, mimeType: mediaTypeOf(path) });
    }
  }
  skills.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { skills, files, directories: directoriesOf(base, files), warnings };
}

async function buildSkill(
  store: SkillStore,
  base: string,
  build: SkillBuild,
  limits: ScanLimits,
  digests: Map<string, { digest: string; size: number }>,
): Promise<Skill> {
  const name = build.dir.slice(build.dir.lastIndexOf('/') + 1);
  let budget = limits.bytes;
  const skillMd = join(build.dir, SKILL_MD);
  let frontmatter: SkillFrontmatter | undefined;
  const resources = [];
  // SKILL.md first: a skill without valid frontmatter is refused before its other files are read.
  for (const path of [skillMd, ...build.files.filter((file) => file !== skillMd)]) {
    let known = digests.get(path);
    if (known === undefined || path === skillMd) {
      const bytes = await readBounded(store, path, budget, limits.bytes);
      if (path === skillMd) frontmatter = frontmatterOf(bytes, name);
      known = { digest: await sha256Digest(bytes), size: bytes.length };
      digests.set(path, known);
    }
    if (known.size > budget) throw new Error(`its files are larger than ${limits.bytes} bytes in total`);
    budget -= known.size;
    resources.push({ uri: uriOf(base, path), digest: known.digest, size: known.size });
  }
  return { uri: uriOf(base, skillMd), frontmatter: frontmatter!, resources };
}

async function readBounded(store: SkillStore, path: string, budget: number, total: number): Promise<Uint8Array> {
  try {
    return await store.read(path, budget);
  } catch (error) {
    if (error instanceof SkillStoreError && error.code === 'too_large') {
      throw new Error(`its files are larger than ${total} bytes in total (at ${path})`);
    }
    throw new Error(`could not read ${path}: ${storeMessage(error)}`);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function frontmatterOf(bytes: Uint8Array, name: string): SkillFrontmatter {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new Error('its SKILL.md is not valid UTF-8');
  }
  const { frontmatter } = splitSkillMarkdown(text);
  const problems = frontmatterProblems(frontmatter);
  if (problems.length > 0) throw new Error(problems.join('; '));
  if (frontmatter.name !== name)
    throw new Error(`its folder is "${name}" but its frontmatter name is "${String(frontmatter.name).slice(0, 80)}"`);
  return frontmatter as SkillFrontmatter;
}

/** Every directory from the top of each catalogued path down, with its direct children sorted by name. */
function directoriesOf(base: string, files: ReadonlyMap<string, FileRecord>): Map<string, DirectoryEntry[]> {
  const children = new Map<string, Map<string, DirectoryEntry>>();
  const add = (dir: string, entry: DirectoryEntry): void => {
    let map = children.get(dir);
    if (!map) children.set(dir, (map = new Map()));
    map.set(entry.name, entry);
  };
  for (const file of files.values()) {
    const parts = file.path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (i === parts.length - 1) add(dir, { uri: file.uri, name: parts[i]!, mimeType: file.mimeType, size: file.size });
      else add(dir, { uri: uriOf(base, `${dir}/${parts[i]}`), name: parts[i]!, mimeType: DIRECTORY_MIME_TYPE });
    }
  }
  const directories = new Map<string, DirectoryEntry[]>();
  const hasPrefix = base.slice(base.indexOf('://') + 3) !== '';
  for (const [dir, map] of children) {
    // The root is a directory only under a prefix (`skill://acme`); `skill://` itself names nothing.
    if (dir === '' && !hasPrefix) continue;
    directories.set(
      dir === '' ? base.slice(0, -1) : uriOf(base, dir),
      [...map.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    );
  }
  return directories;
}

function storeMessage(error: unknown): string {
  if (error instanceof SkillStoreError) return error.message;
  return 'the store failed';
}
