export { directorySkillStore, type DirectorySkillStore } from './directory-store.js';
export { openSkillDirectory, type SkillDirectory, type SkillDirectoryOptions } from './skill-directory.js';
