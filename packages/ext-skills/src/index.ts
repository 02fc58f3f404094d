export {
  SKILLS_EXTENSION,
  SKILLS_LIST,
  SKILLS_GET,
  DIRECTORY_READ,
  DIRECTORY_MIME_TYPE,
  SKILL_MD,
  SKILL_MD_MIME_TYPE,
  SKILL_SCHEME,
  SKILL_LIMITS,
  type SkillsCapability,
  type SkillResource,
  type SkillFrontmatter,
  type Skill,
  type SkillsCacheFields,
  type ListSkillsResult,
  type GetSkillResult,
  type DirectoryEntry,
  type DirectoryReadResult,
} from './wire.js';
export { sha256Digest, isDigest } from './digest.js';
export {
  splitSkillMarkdown,
  frontmatterProblems,
  frontmatterDifferences,
  isSkillName,
  FrontmatterError,
  MAX_FRONTMATTER_BYTES,
} from './frontmatter.js';
export {
  SkillsClient,
  skillsOf,
  type SkillsClientOptions,
  type SkillListing,
  type SkillFile,
  type InvalidSkillEntry,
} from './skills-client.js';
export { SkillVerificationError, type SkillVerificationReason } from './verification-error.js';
export { entryProblem, isSkillEntry } from './entry-check.js';
