/**
 * Prompts that carry resources: `discuss_resource` embeds a resource's contents in the conversation (embedded
 * `resource` content) and `tour` links to every file of a folder (`resource_link` content). Both arguments
 * complete.
 */
import { invalidParams } from '@wiremcp/protocol';
import { ResourceNotFoundError, type McpServer, type PromptMessage } from '@wiremcp/server';
import type { Catalogue } from './catalogue.js';
import { fileDefinition, startingWith } from './files.js';
import type { Icons } from './icons.js';

/** Registers `discuss_resource` and `tour`; `embeddable` lists the URIs the `uri` argument completes to. */
export function registerPrompts(server: McpServer, catalogue: Catalogue, icons: Icons, embeddable: () => string[]): void {
  server.registerPrompt(
    {
      name: 'discuss_resource',
      title: 'Discuss a resource',
      description: 'Puts a resource (catalogue file, element or note) into the conversation and asks about it.',
      arguments: [
        { name: 'uri', title: 'Resource', description: 'The resource to discuss, e.g. demo://files/docs/welcome.md.', required: true },
        { name: 'question', title: 'Question', description: 'What to ask about it (default: a summary).' },
      ],
      icons: icons.document,
    },
    async ({ uri, question }, context) => {
      const contents = await server.readResource(uri!, context).then(
        (read) => read.contents,
        (error: unknown) => {
          if (error instanceof ResourceNotFoundError) throw invalidParams(`Nothing to discuss at ${JSON.stringify(uri!.slice(0, 200))}`);
          throw error;
        },
      );
      const messages: PromptMessage[] = contents.map((resource) => ({ role: 'user', content: { type: 'resource', resource } }));
      messages.push({ role: 'user', content: { type: 'text', text: question ?? 'Summarise this resource in three sentences.' } });
      return { description: `Discussing ${uri}`, messages };
    },
    { complete: { uri: (value) => startingWith(embeddable(), value) } },
  );

  server.registerPrompt(
    {
      name: 'tour',
      title: 'Tour of a folder',
      description: 'Links to every file in a catalogue folder (or the whole catalogue) and asks for a guided tour.',
      arguments: [{ name: 'folder', title: 'Folder', description: 'A catalogue folder such as images (default: everything).' }],
      icons: icons.document,
    },
    ({ folder }) => {
      if (folder !== undefined && !catalogue.folders.includes(folder)) {
        throw invalidParams(`No catalogue folder ${JSON.stringify(folder.slice(0, 200))}; try one of ${catalogue.folders.join(', ')}`);
      }
      const files = catalogue.files.filter((file) => folder === undefined || file.path.startsWith(`${folder}/`));
      const intro = `Give me a short guided tour of ${folder === undefined ? 'the catalogue' : `the folder ${folder}`}: ${files.length} file(s).`;
      return {
        messages: [
          { role: 'user', content: { type: 'text', text: intro } },
          ...files.map((file): PromptMessage => ({ role: 'user', content: { type: 'resource_link', ...fileDefinition(file, icons) } })),
        ],
      };
    },
    { complete: { folder: (value) => startingWith(catalogue.folders, value) } },
  );
}
