/**
 * Tools that change the server's own tool and prompt lists, so list-changed notifications can be observed:
 * `notifications/tools/list_changed` and `notifications/prompts/list_changed` go to legacy sessions and to
 * 2026-07-28 `subscriptions/listen` streams that asked for them. Each call toggles a dynamic entry (added when
 * absent, removed when present); the lists are the same for every connection.
 */
import type { McpServer, RegisteredPrompt, RegisteredTool } from '@wiremcp/server';
import { READ_ONLY } from './content-tools.js';
import { MUTATES_SERVER } from './utility-tools.js';

/** Name of the tool that `test_trigger_tool_change` adds and removes. */
export const DYNAMIC_TOOL = 'test_dynamic_tool';
/** Name of the prompt that `test_trigger_prompt_change` adds and removes. */
export const DYNAMIC_PROMPT = 'test_dynamic_prompt';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;
const TOGGLE_OUTPUT = {
  type: 'object',
  properties: { name: { type: 'string' }, present: { type: 'boolean' } },
  required: ['name', 'present'],
} as const;

/** Registers `test_trigger_tool_change` and `test_trigger_prompt_change`. */
export function registerListChangeTools(server: McpServer): void {
  let dynamicTool: RegisteredTool | undefined;
  let dynamicPrompt: RegisteredPrompt | undefined;

  server.registerTool(
    {
      name: 'test_trigger_tool_change',
      title: 'Change the tool list',
      description:
        `Adds the tool ${DYNAMIC_TOOL} when it is absent, removes it when present; either way the tool list changes ` +
        'and list-changed notifications are sent. Conformance: server-stateless (tools list changed on a listen stream).',
      inputSchema: NO_ARGUMENTS,
      outputSchema: TOGGLE_OUTPUT,
      annotations: MUTATES_SERVER,
    },
    () => {
      if (dynamicTool) {
        dynamicTool.remove();
        dynamicTool = undefined;
      } else {
        dynamicTool = server.registerTool(
          {
            name: DYNAMIC_TOOL,
            title: 'Dynamic tool',
            description: 'Exists only between two calls of test_trigger_tool_change.',
            inputSchema: NO_ARGUMENTS,
            annotations: READ_ONLY,
          },
          () => ({ content: [{ type: 'text', text: 'The dynamic tool is here.' }] }),
        );
      }
      const present = dynamicTool !== undefined;
      return {
        content: [{ type: 'text', text: `${DYNAMIC_TOOL} ${present ? 'added' : 'removed'}` }],
        structuredContent: { name: DYNAMIC_TOOL, present },
      };
    },
  );

  server.registerTool(
    {
      name: 'test_trigger_prompt_change',
      title: 'Change the prompt list',
      description:
        `Adds the prompt ${DYNAMIC_PROMPT} when it is absent, removes it when present; either way the prompt list ` +
        'changes and list-changed notifications are sent. Conformance: server-stateless (prompts list changed).',
      inputSchema: NO_ARGUMENTS,
      outputSchema: TOGGLE_OUTPUT,
      annotations: MUTATES_SERVER,
    },
    () => {
      if (dynamicPrompt) {
        dynamicPrompt.remove();
        dynamicPrompt = undefined;
      } else {
        dynamicPrompt = server.registerPrompt(
          { name: DYNAMIC_PROMPT, title: 'Dynamic prompt', description: 'Exists only between two calls of test_trigger_prompt_change.' },
          () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'The dynamic prompt is here.' } }] }),
        );
      }
      const present = dynamicPrompt !== undefined;
      return {
        content: [{ type: 'text', text: `${DYNAMIC_PROMPT} ${present ? 'added' : 'removed'}` }],
        structuredContent: { name: DYNAMIC_PROMPT, present },
      };
    },
  );
}
