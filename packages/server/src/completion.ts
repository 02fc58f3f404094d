import { invalidParams, quoteInput, truncateInput, type EraNeutralResult } from '@wiremcp/protocol';
import type { PromptRegistry } from './prompt-registry.js';
import type { ResourceRegistry } from './resource-registry.js';
import type { CompletionProvider } from './types.js';

const MAX_VALUES = 100;

/**
 * Runs `completion/complete`: finds the provider of the referenced prompt argument or template variable and
 * returns at most 100 values, with `total` and `hasMore`. An unknown prompt or template is `-32602`; an argument
 * without a provider completes to nothing.
 */
export async function complete(
  params: Record<string, unknown> | undefined,
  prompts: PromptRegistry,
  resources: ResourceRegistry,
): Promise<EraNeutralResult<'completion/complete'>> {
  const ref = params?.ref as Record<string, unknown> | undefined;
  const argument = params?.argument as Record<string, unknown> | undefined;
  if (typeof ref !== 'object' || ref === null) throw invalidParams('Invalid params: "ref" must be an object');
  if (typeof argument !== 'object' || argument === null || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('Invalid params: "argument" must be {name: string, value: string}');
  }
  let provider: CompletionProvider | undefined | null;
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalidParams('Invalid params: "ref.name" must be a string');
    provider = prompts.completer(ref.name, argument.name);
    if (provider === null) throw invalidParams(`Unknown prompt: '${truncateInput(ref.name)}'`);
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalidParams('Invalid params: "ref.uri" must be a string');
    provider = resources.completer(ref.uri, argument.name);
    if (provider === null) throw invalidParams(`Unknown resource template: '${truncateInput(ref.uri)}'`);
  } else {
    throw invalidParams(`Invalid params: unknown reference type ${quoteInput(ref.type)}`);
  }
  if (!provider) return { completion: { values: [], total: 0, hasMore: false } };
  const context = params?.context as { arguments?: Record<string, string> } | undefined;
  const answer = await provider(argument.value, { arguments: { ...context?.arguments } });
  const all = Array.isArray(answer) ? answer : answer.values;
  const values = all.slice(0, MAX_VALUES);
  const total = Array.isArray(answer) ? all.length : (answer.total ?? all.length);
  const hasMore = Array.isArray(answer) ? all.length > MAX_VALUES : (answer.hasMore ?? total > values.length);
  return { completion: { values, total, hasMore } };
}
