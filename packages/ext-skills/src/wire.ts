/**
 * The wire of the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): method names, the capability's
 * identifier, the shapes of its entries and results, and the per-skill limits every conforming host accepts.
 */

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** Lists the skills a server serves (paginated; `ttlMs`/`cacheScope` on 2026-07-28). */
export const SKILLS_LIST = 'skills/list';
/** One skill's entry by the URI of its `SKILL.md`. */
export const SKILLS_GET = 'skills/get';
/** The direct children of a directory resource; served only behind `directoryRead: true`. */
export const DIRECTORY_READ = 'resources/directory/read';
/** The `mimeType` of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** The `mimeType` of a `SKILL.md` resource. */
export const SKILL_MD_MIME_TYPE = 'text/markdown';
/** The file every skill has at its root. */
export const SKILL_MD = 'SKILL.md';
/** The scheme servers should serve skills under. */
export const SKILL_SCHEME = 'skill://';

/** What every conforming host must accept per skill: 512 files, 16 MiB in total (the sum of `size`). */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** The extension's settings in the server's capabilities. */
export interface SkillsCapability {
  /** The server implements `resources/directory/read`. */
  directoryRead?: boolean;
}

/** One file of a skill: its URI, the SHA-256 of its raw bytes (`sha256:` + 64 lowercase hex) and its length. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A `SKILL.md`'s YAML frontmatter as a JSON object: `name` and `description` always, the rest as written. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** One skill: its `SKILL.md` URI, frontmatter verbatim, and every file (or `"dynamic"` for generated content). */
export interface Skill {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | 'dynamic';
}

/** Caching fields of 2026-07-28 results. */
export interface SkillsCacheFields {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** The result of `skills/list`. */
export interface ListSkillsResult extends SkillsCacheFields {
  skills: Skill[];
  nextCursor?: string;
}

/** The result of `skills/get`. */
export interface GetSkillResult extends SkillsCacheFields {
  skill: Skill;
}

/** A child of a directory resource: a file with its resource metadata, or a directory (`inode/directory`). */
export interface DirectoryEntry {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  description?: string;
}

/** The result of `resources/directory/read`. */
export interface DirectoryReadResult extends SkillsCacheFields {
  resources: DirectoryEntry[];
  nextCursor?: string;
}
