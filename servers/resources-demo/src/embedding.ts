/**
 * Resources as content: the tool `embed_resource` returns a resource's contents as embedded `resource` blocks
 * (the prompts in `prompts.ts` do the same). What can be embedded is what a {@link Lookup} can read without a
 * request: catalogue files, elements, notes.
 */
import type { BlobResourceContents, McpServer, TextResourceContents } from '@wiremcp/server';

/** The contents of `uri`, or undefined when it is not something that can be embedded. */
export type Lookup = (uri: string) => Array<TextResourceContents | BlobResourceContents> | undefined;

/** Registers `embed_resource`. */
export function registerEmbedTool(server: McpServer, lookup: Lookup): void {
  server.registerTool(
    {
      name: 'embed_resource',
      title: 'Embed a resource',
      description: 'Returns the contents of a catalogue file, element or note as embedded resource content (text or blob).',
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string', maxLength: 300, description: 'e.g. demo://files/docs/welcome.md or demo://elements/Fe' } },
        required: ['uri'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ uri }: { uri: string }) => {
      const contents = lookup(uri);
      if (!contents) return { content: [{ type: 'text', text: `Nothing to embed at ${JSON.stringify(uri)}.` }], isError: true };
      return {
        content: [{ type: 'text', text: `Contents of ${uri}:` }, ...contents.map((resource) => ({ type: 'resource' as const, resource }))],
      };
    },
  );
}
