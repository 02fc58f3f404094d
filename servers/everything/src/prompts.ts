/**
 * The prompts of the everything server: the four the conformance suite names, with argument completion
 * (including completion that depends on another argument's value).
 */
import type { CompletionProvider, McpServer } from '@wiremcp/server';
import { ICONS, PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';
import { prefixCompleter, STATIC_TEXT_URI, WATCHED_URI } from './resources.js';

/** Values offered for `arg1` of `test_prompt_with_arguments`. */
export const ARG1_VALUES = ['paris', 'park', 'party', 'test', 'testing', 'hello'] as const;

/** `arg2` suggestions follow `arg1` (context-aware completion, `context.arguments` since 2025-06-18). */
const completeArg2: CompletionProvider = (value, context) => {
  const arg1 = context.arguments.arg1;
  const base = arg1 === undefined ? ['world', 'there', 'again'] : [`${arg1}-world`, `${arg1}-again`, `${arg1}-${arg1}`];
  return base.filter((candidate) => candidate.startsWith(value));
};

/** Registers the prompts. */
export function registerEverythingPrompts(server: McpServer): void {
  server.registerPrompt(
    {
      name: 'test_simple_prompt',
      title: 'Simple prompt',
      description: 'A prompt without arguments: one user text message. Conformance: prompts-get-simple.',
      icons: ICONS,
    },
    () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
  );

  server.registerPrompt(
    {
      name: 'test_prompt_with_arguments',
      title: 'Prompt with arguments',
      description:
        'A prompt with two required arguments, both completable (arg2 suggestions depend on arg1). ' +
        'Conformance: prompts-get-with-args, completion-complete.',
      arguments: [
        { name: 'arg1', title: 'First argument', description: 'First test argument', required: true },
        { name: 'arg2', title: 'Second argument', description: 'Second test argument', required: true },
      ],
    },
    (args) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
    }),
    { complete: { arg1: prefixCompleter(ARG1_VALUES), arg2: completeArg2 } },
  );

  server.registerPrompt(
    {
      name: 'test_prompt_with_embedded_resource',
      title: 'Prompt with an embedded resource',
      description:
        'A prompt that embeds a text resource under the given URI, then asks to process it. Conformance: prompts-get-embedded-resource.',
      arguments: [{ name: 'resourceUri', title: 'Resource URI', description: 'URI of the resource to embed', required: true }],
    },
    (args) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: args.resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
    { complete: { resourceUri: prefixCompleter([STATIC_TEXT_URI, WATCHED_URI, 'test://example-resource']) } },
  );

  server.registerPrompt(
    {
      name: 'test_prompt_with_image',
      title: 'Prompt with an image',
      description: 'A prompt with an image message (1x1 red PNG) and a text message. Conformance: prompts-get-with-image.',
    },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
}
