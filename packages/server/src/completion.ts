import { invalidParams, quoteInput, truncateInput, type EraNeutralResult } from '@wiremcp/protocol';
import { RequestHandlerContext, type RequestScope } from './handler-context.js';
import type { PromptRegistry } from './prompt-registry.js';
import type { ResourceRegistry } from './resource-registry.js';
import type { ServerRequestContext } from './server-peer.js';
import type { CompletionContext, CompletionProvider } from './types.js';

const MAX_VALUES = 100;

/** The context a completion provider gets: the request's, with the other arguments' values. */
class CompletionRequestContext extends RequestHandlerContext implements CompletionContext {
  readonly #others: Record<string, string>;

  constructor(rpc: ServerRequestContext, scope: RequestScope, others: Record<string, string>) {
    super(rpc, scope, undefined);
    this.#others = others;
  }

  get arguments(): Record<string, string> {
    return this.#others;
  }
}

/**
 * Runs `completion/complete`: finds the provider of the referenced prompt argument or template variable and
 * returns at most 100 values, with `total` and `hasMore`. An unknown prompt or template is `-32602`; an argument
 * without a provider completes to nothing.
 */
export async function complete(
  params: Record<string, unknown> | undefined,
  prompts: PromptRegistry,
  resources: ResourceRegistry,
  rpc: ServerRequestContext,
  scope: RequestScope,
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
  const given = (params?.context as { arguments?: unknown } | undefined)?.arguments;
  const others: Record<string, string> = {};
  if (typeof given === 'object' && given !== null && !Array.isArray(given)) {
    for (const [key, value] of Object.entries(given)) if (typeof value === 'string') others[key] = value;
  }
  const answer = await provider(argument.value, new CompletionRequestContext(rpc, scope, others));
  const all = Array.isArray(answer) ? answer : answer.values;
  const values = all.slice(0, MAX_VALUES);
  const total = Array.isArray(answer) ? all.length : (answer.total ?? all.length);
  const hasMore = Array.isArray(answer) ? all.length > MAX_VALUES : (answer.hasMore ?? total > values.length);
  return { completion: { values, total, hasMore } };
}
