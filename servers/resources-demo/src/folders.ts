/**
 * Folders of the catalogue: `demo://folders{/segments*}` (exploded path segments, RFC 6570 level 4). Reading a
 * folder gives several contents in one result: a JSON index of the folder first, then every file directly in
 * it, text and blobs mixed, each under its own `demo://files/…` URI.
 */
import { ResourceNotFoundError, type McpServer } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Catalogue } from './catalogue.js';
import { fileContents, fileUri, startingWith } from './files.js';
import type { Icons } from './icons.js';

/** The folder template. */
export const FOLDER_TEMPLATE = 'demo://folders{/segments*}';

/** The URI of a folder (`''` is the root, `demo://folders`). */
export function folderUri(folder: string): string {
  return folder === '' ? 'demo://folders' : `demo://folders/${folder}`;
}

/** What a folder holds: its direct subfolders and files. */
export interface FolderIndex {
  folder: string;
  folders: string[];
  files: string[];
}

/** The index of `folder`, or undefined when the catalogue has no such folder. */
export function folderIndex(catalogue: Catalogue, folder: string): FolderIndex | undefined {
  if (folder !== '' && !catalogue.folders.includes(folder)) return undefined;
  const prefix = folder === '' ? '' : `${folder}/`;
  const direct = (path: string) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/');
  return {
    folder,
    folders: catalogue.folders.filter(direct).map(folderUri),
    files: catalogue.files.filter((file) => direct(file.path)).map((file) => fileUri(file.path)),
  };
}

/** Registers the folder template, whose `segments` complete to folder paths. */
export function registerFolders(server: McpServer, catalogue: Catalogue, icons: Icons): void {
  server.registerResourceTemplate(
    {
      uriTemplate: FOLDER_TEMPLATE,
      name: 'folder',
      title: 'Catalogue folder',
      description: 'A folder of the catalogue (demo://folders/images/pixel-art): an index, then every file in it, in one read.',
      icons: icons.document,
    },
    (uri, variables) => {
      // Exploded segments arrive as a list; a client that expanded one "a/b" value sent %2F, decoded back to "/".
      const segments = variables.segments === undefined ? [] : ([] as string[]).concat(variables.segments);
      const folder = segments
        .flatMap((segment) => segment.split('/'))
        .filter((part) => part !== '')
        .join('/');
      const index = folderIndex(catalogue, folder);
      if (!index) throw new ResourceNotFoundError(uri);
      const files = catalogue.files.filter((file) => index.files.includes(fileUri(file.path)));
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(index) }, ...files.map((file) => fileContents(file))],
      };
    },
    { cache: READ_HINTS.catalogue, complete: { segments: (value) => startingWith(catalogue.folders, value) } },
  );
}
