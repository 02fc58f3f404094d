/**
 * The catalogue's files as direct resources — every field a resource can carry, text and blob contents — and
 * the template `demo://files/{folder}/{+name}`, whose `name` completes within the folder the client chose
 * (dependent completion through `context.arguments`).
 */
import { ResourceNotFoundError, type McpServer, type ResourceDefinition, type TextResourceContents } from '@wiremcp/server';
import type { BlobResourceContents } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Catalogue, CatalogueFile } from './catalogue.js';
import type { Icons } from './icons.js';

/** The template of catalogue files: `{+name}` keeps the `/` of a path inside the folder. */
export const FILE_TEMPLATE = 'demo://files/{folder}/{+name}';

/** The URI of the file at `path` (`images/pixel-art/heart.png` → `demo://files/images/pixel-art/heart.png`). */
export function fileUri(path: string): string {
  return `demo://files/${path}`;
}

/** What `resources/list` says about a file: every field of a resource. */
export function fileDefinition(file: CatalogueFile, icons: Icons): ResourceDefinition {
  return {
    uri: fileUri(file.path),
    name: file.path,
    title: file.title,
    description: file.description,
    mimeType: file.mimeType,
    size: file.size,
    annotations: { audience: [...file.audience], priority: file.priority, lastModified: file.lastModified },
    icons: file.mimeType.startsWith('image/') ? icons.image : icons.document,
  };
}

/** A file's contents under `uri`: text for text types, a base64 blob for the rest. */
export function fileContents(file: CatalogueFile, uri = fileUri(file.path)): TextResourceContents | BlobResourceContents {
  return file.text !== undefined ? { uri, mimeType: file.mimeType, text: file.text } : { uri, mimeType: file.mimeType, blob: file.blob! };
}

/** Candidates that start with `prefix`, ignoring case. */
export function startingWith(candidates: Iterable<string>, prefix: string): string[] {
  const lower = prefix.toLowerCase();
  return [...candidates].filter((candidate) => candidate.toLowerCase().startsWith(lower));
}

/** Registers each file as a direct resource, and the file template with its completion. */
export function registerFiles(server: McpServer, catalogue: Catalogue, icons: Icons): void {
  for (const file of catalogue.files) {
    server.registerResource(fileDefinition(file, icons), (uri) => ({ contents: [fileContents(file, uri)] }), {
      cache: READ_HINTS.catalogue,
    });
  }

  const topFolders = [...new Set(catalogue.files.map((file) => file.folder))];
  server.registerResourceTemplate(
    {
      uriTemplate: FILE_TEMPLATE,
      name: 'file',
      title: 'Catalogue file',
      description: 'A document or image of the catalogue by folder and name; name may contain "/" (reserved expansion). Both complete.',
      icons: icons.document,
    },
    // The direct resources answer their own URIs; this reads every other spelling that names a file
    // (`pixel-art%2Fheart.png` decodes to the same name) and is not-found for the rest.
    (uri, variables) => {
      const file = catalogue.file(`${String(variables.folder)}/${String(variables.name)}`);
      if (!file) throw new ResourceNotFoundError(uri);
      return { contents: [fileContents(file, uri)] };
    },
    {
      cache: READ_HINTS.catalogue,
      complete: {
        folder: (value) => startingWith(topFolders, value),
        // Dependent completion: with `context.arguments.folder` only that folder's names, otherwise every name.
        name: (value, { arguments: chosen }) =>
          startingWith(
            catalogue.files.filter((file) => chosen.folder === undefined || file.folder === chosen.folder).map((file) => file.name),
            value,
          ),
      },
    },
  );
}
