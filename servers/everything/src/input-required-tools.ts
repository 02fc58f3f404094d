/**
 * The input-required (MRTR, SEP-2322) fixtures of 2026-07-28: tools and a prompt that need client input under
 * the exact `inputRequests` keys the conformance suite expects. The server signs `requestState` (HMAC, bound to
 * the request, short-lived), carries earlier answers across rounds, and rejects tampered state with `-32602`.
 * In a legacy session the same handlers send ordinary server-to-client requests.
 */
import type { HandlerContext, McpServer } from '@wiremcp/server';
import { acceptedField, describeElicitation, describeRoots, rootsOf, sampledText } from './client-answers.js';
import { INTERACTIVE, samplingRequest } from './client-request-tools.js';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** A one-field form elicitation. */
function askField(ctx: HandlerContext, key: string, message: string, field: string, type: 'string' | 'boolean') {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return ctx.elicit({ message, requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] } }, { key });
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** Registers the `test_input_required_result_*` tools and prompt. */
export function registerInputRequiredFixtures(server: McpServer): void {
  const tool = (name: string, description: string, handler: (ctx: HandlerContext) => Promise<ReturnType<typeof text>>) =>
    server.registerTool({ name, description, inputSchema: NO_ARGUMENTS, annotations: INTERACTIVE }, (_args, ctx) => handler(ctx));

  tool(
    'test_input_required_result_elicitation',
    'Asks for the user\'s name under input key "user_name", then greets them. Conformance: input-required-result-basic-elicitation ' +
      '(and -result-type, -missing-input-response, -ignore-extra-params, -validate-input).',
    async (ctx) => {
      const answer = await askField(ctx, 'user_name', 'What is your name?', 'name', 'string');
      const name = acceptedField(answer, 'name');
      return text(name === undefined ? `No name given (${describeElicitation(answer)})` : `Hello, ${name}!`);
    },
  );

  tool(
    'test_input_required_result_sampling',
    'Asks the client\'s model a question under input key "capital_question". Conformance: input-required-result-basic-sampling.',
    async (ctx) => {
      const answer = await ctx.sample(samplingRequest('What is the capital of France?'), { key: 'capital_question' });
      return text(`Sampling response: ${sampledText(answer)}`);
    },
  );

  tool(
    'test_input_required_result_list_roots',
    'Asks for the client\'s roots under input key "client_roots" and lists them. Conformance: input-required-result-basic-list-roots.',
    async (ctx) => text(`Client roots:\n${describeRoots(rootsOf(await ctx.listRoots({ key: 'client_roots' })))}`),
  );

  tool(
    'test_input_required_result_request_state',
    'Asks for a confirmation under input key "confirm"; the retry must echo the signed requestState, and the answer says ' +
      '"state-ok" once it was verified. Conformance: input-required-result-request-state.',
    async (ctx) => {
      const answer = await askField(ctx, 'confirm', 'Please confirm', 'ok', 'boolean');
      // In 2026-07-28 an answer can only reach the handler through a requestState the server verified.
      const verified = ctx.era === 'modern' ? 'state-ok' : 'answered directly (legacy session, no requestState)';
      return text(`${verified}: ${describeElicitation(answer)}`);
    },
  );

  tool(
    'test_input_required_result_multiple_inputs',
    'Asks for a name ("user_name"), a model greeting ("greeting") and the roots ("client_roots") in one round. ' +
      'Conformance: input-required-result-multiple-input-requests.',
    async (ctx) => {
      const [who, greeting, roots] = await Promise.all([
        askField(ctx, 'user_name', 'What is your name?', 'name', 'string'),
        ctx.sample(samplingRequest('Generate a greeting', 50), { key: 'greeting' }),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      const name = acceptedField(who, 'name') ?? 'stranger';
      return text(`All inputs received: name=${name}, greeting=${sampledText(greeting)}, roots=${rootsOf(roots).length}`);
    },
  );

  tool(
    'test_input_required_result_multi_round',
    'Asks for a name ("step1"), and only once it has it for a favourite colour ("step2"): two input-required rounds ' +
      'with evolving requestState. Conformance: input-required-result-multi-round.',
    async (ctx) => {
      const step1 = await askField(ctx, 'step1', 'Step 1: What is your name?', 'name', 'string');
      const step2 = await askField(ctx, 'step2', 'Step 2: What is your favorite color?', 'color', 'string');
      return text(`Multi-round complete: name=${acceptedField(step1, 'name') ?? '?'}, color=${acceptedField(step2, 'color') ?? '?'}`);
    },
  );

  tool(
    'test_input_required_result_tampered_state',
    'Asks for a confirmation under input key "confirm"; a retry whose requestState was altered is refused with -32602. ' +
      'Conformance: input-required-result-tampered-state.',
    async (ctx) => text(`Confirmed: ${describeElicitation(await askField(ctx, 'confirm', 'Please confirm', 'ok', 'boolean'))}`),
  );

  tool(
    'test_input_required_result_capabilities',
    'Asks for one input of each kind the client declared on this request (elicitation "elicit_input", sampling ' +
      '"sample_input", roots "roots_input") and none it did not. Conformance: input-required-result-capability-check.',
    async (ctx) => {
      const caps = ctx.clientCapabilities;
      const asks: Array<Promise<unknown>> = [];
      const keys: string[] = [];
      if (caps.elicitation) {
        keys.push('elicit_input');
        asks.push(askField(ctx, 'elicit_input', 'Elicitation input', 'value', 'string'));
      }
      if (caps.sampling) {
        keys.push('sample_input');
        asks.push(ctx.sample(samplingRequest('Sample request', 50), { key: 'sample_input' }));
      }
      if (caps.roots) {
        keys.push('roots_input');
        asks.push(ctx.listRoots({ key: 'roots_input' }));
      }
      if (asks.length === 0) return text('No supported capabilities declared');
      await Promise.all(asks);
      return text(`capabilities-ok: received ${keys.join(',')}`);
    },
  );

  server.registerPrompt(
    {
      name: 'test_input_required_result_prompt',
      title: 'Prompt that needs input',
      description:
        'A prompt that first asks the user for context (input key "user_context") and then builds its message from it. ' +
        'Conformance: input-required-result-non-tool-request.',
    },
    async (_args, ctx) => {
      const answer = await askField(ctx, 'user_context', 'What context should the prompt use?', 'context', 'string');
      const context = acceptedField(answer, 'context') ?? 'no context';
      return {
        description: 'A prompt built from user-provided context',
        messages: [{ role: 'user', content: { type: 'text', text: `Please help with the following context: ${context}` } }],
      };
    },
  );
}
