/**
 * The catalogue as directory resources (`resources/directory/read`, defined by the Skills extension and usable on
 * any scheme): `demo://files` and each folder below it (`demo://files/images/pixel-art`) list their direct
 * children — files with their full resource metadata, subfolders as `inode/directory` — a page at a time. The
 * method is announced the only way the spec allows, `directoryRead: true` in the skills extension's settings, so
 * the server also serves one skill: how to browse this catalogue.
 */
import { DIRECTORY_MIME_TYPE } from '@wiremcp/ext-skills';
import { SkillCatalog, serveDirectoryRead, serveSkills } from '@wiremcp/ext-skills/server';
import type { McpServer, ResourceDefinition } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Catalogue } from './catalogue.js';
import { fileDefinition, fileUri } from './files.js';
import type { Icons } from './icons.js';

/** The root directory of the catalogue. */
export const FILES_ROOT = 'demo://files';

/** The direct children of folder `folder` (`''` is the root), or undefined when there is no such folder. */
export function folderChildren(catalogue: Catalogue, icons: Icons, folder: string): ResourceDefinition[] | undefined {
  if (folder !== '' && !catalogue.folders.includes(folder)) return undefined;
  const prefix = folder === '' ? '' : `${folder}/`;
  const direct = (path: string): boolean =>
    path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/');
  const folders: ResourceDefinition[] = catalogue.folders
    .filter(direct)
    .map((path) => ({ uri: fileUri(path), name: path.slice(prefix.length), mimeType: DIRECTORY_MIME_TYPE }));
  const files = catalogue.files
    .filter((file) => direct(file.path))
    .map((file) => ({ ...fileDefinition(file, icons), name: file.path.slice(prefix.length) }));
  return [...folders, ...files];
}

const BROWSE_SKILL = `---
name: browse-catalogue
description: Find a document or image in the resources demo's catalogue by walking its folders with resources/directory/read.
---

# Browsing the catalogue

Start at \`demo://files\` with \`resources/directory/read\`; entries whose mimeType is \`inode/directory\` are folders
to read the same way. Read a file with \`resources/read\`. To search by words instead, call \`find_resources\`.
`;

/** Serves directory reads of the catalogue, and the skill that explains them. */
export function registerDirectories(server: McpServer, catalogue: Catalogue, icons: Icons): void {
  serveSkills(server, SkillCatalog.fromMemory({ 'browse-catalogue/SKILL.md': BROWSE_SKILL }), { pageSize: 5, cache: READ_HINTS.catalogue });
  serveDirectoryRead(server, (uri) => {
    if (uri === FILES_ROOT) return folderChildren(catalogue, icons, '');
    if (!uri.startsWith(`${FILES_ROOT}/`)) return undefined;
    return folderChildren(catalogue, icons, uri.slice(FILES_ROOT.length + 1));
  });
}
