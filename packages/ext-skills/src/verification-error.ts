/**
 * The typed error of a skill file that failed verification against its entry. Hosts must not use the content;
 * for a `SKILL.md`, must not load the skill. Recovery is to fetch the entry again (`skills/get`) and, since the
 * manifest then differs, to ask for approval again.
 */

/** Why a file failed: not in the manifest, wrong size, wrong digest, or frontmatter differing from the entry's. */
export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'frontmatter';

/** See the module comment. */
export class SkillVerificationError extends Error {
  constructor(
    readonly reason: SkillVerificationReason,
    /** The file's URI (as the entry spells it, or as requested when unlisted). */
    readonly uri: string,
    message: string,
    /** For `frontmatter`: one line per differing field. */
    readonly differences: readonly string[] = [],
  ) {
    super(message);
    this.name = 'SkillVerificationError';
  }
}
