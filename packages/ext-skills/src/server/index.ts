export {
  SkillCatalog,
  SkillContentChangedError,
  type DynamicSkill,
  type SkillCatalogOptions,
  type SkillCatalogChanges,
  type SkillFileContent,
} from '../catalog.js';
export { DEFAULT_SCAN_LIMITS, type ScanLimits, type SkillWarning } from '../catalog-scan.js';
export { memorySkillStore, SkillStoreError, type SkillStore, type SkillStoreEntry, type SkillStoreErrorCode } from '../store.js';
export { serveSkills, type ServeSkillsOptions, type ServedSkills } from '../serve-skills.js';
export { serveDirectoryRead, type DirectoryReader, type DirectoryReadOptions } from '../directory-read.js';
