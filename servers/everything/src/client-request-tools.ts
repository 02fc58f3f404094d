/**
 * Tools that need the client: sampling, elicitation (form and URL mode) and roots. In a legacy session each
 * one sends the client a request and waits for the answer; in 2026-07-28 the same handler answers with an
 * input-required result and completes on the client's retry (the server hides the difference). A client that
 * did not declare the capability gets a tool error (legacy) or `-32021` naming the capability (2026-07-28).
 */
import type { CreateMessageParams, ElicitParams, HandlerContext, McpServer, ToolAnnotations } from '@wiremcp/server';
import { abortableSleep } from './abortable-sleep.js';
import { describeElicitation, describeRoots, rootsOf, sampledText } from './client-answers.js';
import { READ_ONLY } from './content-tools.js';

/** Hints of a tool that involves the user or the client's model. */
export const INTERACTIVE: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** The schema of a form-mode elicitation (`requestedSchema`). */
export type FormSchema = Extract<ElicitParams, { requestedSchema: unknown }>['requestedSchema'];

/** The SEP-1034 form: one field of each primitive type, each with a default. */
export const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'John Doe' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150, default: 30 },
    score: { type: 'number', title: 'Score', minimum: 0, maximum: 100, default: 95.5 },
    status: { type: 'string', title: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', title: 'Verified', default: true },
  },
} satisfies FormSchema;

/** The SEP-1330 form: the five enum shapes of 2025-11-25. */
export const ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', title: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      title: 'Titled single-select',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      title: 'Legacy titled enum',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', title: 'Untitled multi-select', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      title: 'Titled multi-select',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
} satisfies FormSchema;

/** The sampling request every sampling tool sends for `prompt`. */
export function samplingRequest(prompt: string, maxTokens = 100): CreateMessageParams {
  return { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens };
}

async function elicitForm(ctx: HandlerContext, message: string, requestedSchema: FormSchema, key?: string): Promise<string> {
  const result = await ctx.elicit({ message, requestedSchema }, key === undefined ? undefined : { key });
  return describeElicitation(result);
}

/** Registers the sampling, elicitation and roots tools. */
export function registerClientRequestTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'test_sampling',
      title: 'Sampling',
      description: "Asks the client's model to answer a prompt (sampling/createMessage, maxTokens 100). Conformance: tools-call-sampling.",
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the model.' } },
        required: ['prompt'],
      },
      annotations: INTERACTIVE,
    },
    async (args: { prompt: string }, ctx) => {
      const result = await ctx.sample(samplingRequest(args.prompt));
      return { content: [{ type: 'text', text: `LLM response: ${sampledText(result)}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_elicitation',
      title: 'Form elicitation',
      description: 'Asks the user for a username and an email (elicitation/create, form mode). Conformance: tools-call-elicitation.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user.' } },
        required: ['message'],
      },
      annotations: INTERACTIVE,
    },
    async (args: { message: string }, ctx) => {
      const schema: FormSchema = {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      };
      return { content: [{ type: 'text', text: `User response: ${await elicitForm(ctx, args.message, schema)}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_elicitation_sep1034_defaults',
      title: 'Elicitation with defaults',
      description:
        'Asks for a form whose string, integer, number, enum and boolean fields all carry defaults. Conformance: elicitation-sep1034-defaults.',
      inputSchema: NO_ARGUMENTS,
      annotations: INTERACTIVE,
    },
    async (_args, ctx) => {
      const outcome = await elicitForm(ctx, 'Please review and update the form fields with defaults', DEFAULTS_SCHEMA);
      return { content: [{ type: 'text', text: `Elicitation completed: ${outcome}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_elicitation_sep1330_enums',
      title: 'Elicitation with every enum shape',
      description:
        'Asks for a form with untitled and titled single-select, legacy enumNames, untitled and titled multi-select enums. ' +
        'Conformance: elicitation-sep1330-enums.',
      inputSchema: NO_ARGUMENTS,
      annotations: INTERACTIVE,
    },
    async (_args, ctx) => {
      const outcome = await elicitForm(ctx, 'Please select options from the enum fields', ENUMS_SCHEMA);
      return { content: [{ type: 'text', text: `Elicitation completed: ${outcome}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_elicitation_url',
      title: 'URL elicitation',
      description:
        'Asks the user to visit a URL (elicitation/create, URL mode: 2025-11-25 with an elicitationId, 2026-07-28 without). ' +
        'Needs the elicitation.url client capability.',
      inputSchema: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', default: 'https://example.com/authorize', description: 'The URL to open.' },
          message: { type: 'string', default: 'Please authorize access in your browser.', description: 'Why.' },
        },
        additionalProperties: false,
      },
      annotations: INTERACTIVE,
    },
    async (args: { url?: string; message?: string }, ctx) => {
      const message = args.message ?? 'Please authorize access in your browser.';
      const url = args.url ?? 'https://example.com/authorize';
      // 2025-11-25 correlates URL elicitations by id; 2026-07-28 removed the field.
      const params: ElicitParams =
        ctx.era === 'legacy' ? { mode: 'url', message, url, elicitationId: crypto.randomUUID() } : { mode: 'url', message, url };
      const result = await ctx.elicit(params);
      return { content: [{ type: 'text', text: `URL elicitation completed: ${describeElicitation(result)}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_list_roots',
      title: 'Roots',
      description: 'Asks the client for its roots (roots/list) and returns them, one per line and as structured output.',
      inputSchema: NO_ARGUMENTS,
      outputSchema: {
        type: 'object',
        properties: {
          roots: {
            type: 'array',
            items: { type: 'object', properties: { uri: { type: 'string' }, name: { type: 'string' } }, required: ['uri'] },
          },
        },
        required: ['roots'],
      },
      annotations: { ...READ_ONLY, idempotentHint: false },
    },
    async (_args, ctx) => {
      const roots = rootsOf(await ctx.listRoots());
      return { content: [{ type: 'text', text: describeRoots(roots) }], structuredContent: { roots } };
    },
  );

  server.registerTool(
    {
      name: 'test_missing_capability',
      title: 'Needs sampling',
      description:
        'Needs the client sampling capability: without it the call fails (a tool error in legacy sessions, -32021 ' +
        'MissingRequiredClientCapability in 2026-07-28). Conformance: server-stateless (undeclared capability).',
      inputSchema: NO_ARGUMENTS,
      annotations: INTERACTIVE,
    },
    async (_args, ctx) => {
      const result = await ctx.sample(samplingRequest('Say hello in one word.', 20), { key: 'hello' });
      return { content: [{ type: 'text', text: `LLM response: ${sampledText(result)}` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_streaming_elicitation',
      title: 'Progress, then elicitation',
      description:
        'Reports progress, then asks the user to confirm. In 2026-07-28 the question travels in an input-required ' +
        'result, never as a request on the response stream. Conformance: server-stateless (no requests on response streams).',
      inputSchema: NO_ARGUMENTS,
      annotations: INTERACTIVE,
    },
    async (_args, ctx) => {
      await ctx.sendProgress(50, 100, 'Waiting for confirmation');
      await abortableSleep(10, ctx.signal);
      const schema: FormSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
      const outcome = await elicitForm(ctx, 'Continue?', schema, 'stream_confirm');
      await ctx.sendProgress(100, 100, 'Done');
      return { content: [{ type: 'text', text: `Streaming complete: ${outcome}` }] };
    },
  );
}
