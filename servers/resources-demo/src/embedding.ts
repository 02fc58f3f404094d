/**
 * Resources as content: the tool `embed_resource` returns a resource's contents as embedded `resource` blocks
 * (the prompts in `prompts.ts` do the same). It reads through `server.readResource`, with the tool call's own
 * context, so whatever the server can read can be embedded, exactly as `resources/read` would return it.
 */
import { ResourceNotFoundError, type McpServer } from '@wiremcp/server';

/** Registers `embed_resource`. */
export function registerEmbedTool(server: McpServer): void {
  server.registerTool(
    {
      name: 'embed_resource',
      title: 'Embed a resource',
      description:
        'Returns the contents of a resource of this server (catalogue file, element, note…) as embedded resource content (text or blob).',
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string', maxLength: 300, description: 'e.g. demo://files/docs/welcome.md or demo://elements/Fe' } },
        required: ['uri'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ uri }: { uri: string }, context) => {
      let contents;
      try {
        ({ contents } = await server.readResource(uri, context));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundError)) throw error;
        return { content: [{ type: 'text', text: `Nothing to embed at ${JSON.stringify(uri)}.` }], isError: true };
      }
      return {
        content: [{ type: 'text', text: `Contents of ${uri}:` }, ...contents.map((resource) => ({ type: 'resource' as const, resource }))],
      };
    },
  );
}
