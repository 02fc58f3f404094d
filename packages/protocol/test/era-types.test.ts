// The era-neutral views of the method maps and the method sets read from the table: type-level assertions
// (checked by the root `tsc -p tsconfig.json`) and the runtime sets they mirror.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CallToolResult, CreateTaskResult, InputRequiredResult, Spec2025_11_25, Spec2026_07_28 } from '../src/generated/index.js';
import type {
  CacheableMethod,
  CompleteResultOf,
  EraNeutralParams,
  EraNeutralResult,
  InputParamsOf,
  InputRequiredMethod,
  InputResultOf,
  WithOptionalKeys,
} from '../src/era-types.js';
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS, LEGACY_ONLY_METHODS, MODERN_ONLY_METHODS } from '../src/methods.js';

describe('era-neutral params and results', () => {
  it('make _meta optional in params, and keep every other key', () => {
    expectTypeOf<EraNeutralParams<'tools/call'>>().toEqualTypeOf<{
      arguments?: { [k: string]: unknown };
      inputResponses?: Spec2026_07_28.InputResponses;
      name: string;
      requestState?: string;
      _meta?: Spec2026_07_28.RequestMetaObject;
    }>();
    const legacy: EraNeutralParams<'tools/call'> = { name: 'echo', arguments: { text: 'hi' } };
    expect(legacy.name).toBe('echo');
    expectTypeOf<EraNeutralParams<'ping'>>().toEqualTypeOf<{ _meta?: Spec2025_11_25.RequestParams['_meta'] } | undefined>();
  });

  it('make the keys a server stamps optional in results, across the union', () => {
    expectTypeOf<EraNeutralResult<'tools/call'>>().toEqualTypeOf<
      WithOptionalKeys<CallToolResult, 'resultType'> | WithOptionalKeys<InputRequiredResult, 'resultType'>
    >();
    const legacyList: EraNeutralResult<'tools/list'> = { tools: [] };
    expect(legacyList.tools).toEqual([]);
    expectTypeOf<EraNeutralResult<'tools/list'>['ttlMs']>().toEqualTypeOf<number | undefined>();
  });

  it('leave only the complete result in CompleteResultOf (no input-required, no task)', () => {
    expectTypeOf<CompleteResultOf<'tools/call'>>().toEqualTypeOf<WithOptionalKeys<CallToolResult, 'resultType'>>();
    expectTypeOf<CompleteResultOf<'ping'>>().toEqualTypeOf<EraNeutralResult<'ping'>>();
    expectTypeOf<CreateTaskResult>().not.toEqualTypeOf<CompleteResultOf<'sampling/createMessage'>>();
    expectTypeOf<CompleteResultOf<'sampling/createMessage'>>().toEqualTypeOf<
      WithOptionalKeys<Spec2025_11_25.CreateMessageResult, 'resultType'>
    >();
  });

  it('unite the two revisions of input requests', () => {
    const url2026: InputParamsOf<'elicitation/create'> = { mode: 'url', message: 'Log in', url: 'https://example.com' };
    const url2025: InputParamsOf<'elicitation/create'> = {
      mode: 'url',
      message: 'Log in',
      url: 'https://example.com',
      elicitationId: 'e1',
    };
    expect([url2026.mode, url2025.mode]).toEqual(['url', 'url']);
    expectTypeOf<InputResultOf<'roots/list'>>().toEqualTypeOf<Spec2026_07_28.ListRootsResult | Spec2025_11_25.ListRootsResult>();
    // @ts-expect-error -- task augmentation is not something a handler asks for
    const tasked: InputParamsOf<'sampling/createMessage'> = { messages: [], maxTokens: 1, task: { ttl: 1 } };
    expect(tasked.maxTokens).toBe(1);
  });
});

describe('method sets', () => {
  it('name the same methods at the type level and at run time', () => {
    expectTypeOf<InputRequiredMethod>().toEqualTypeOf<'tools/call' | 'prompts/get' | 'resources/read'>();
    expectTypeOf<CacheableMethod>().toEqualTypeOf<
      'server/discover' | 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read'
    >();
    expect([...INPUT_REQUIRED_METHODS].sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
    expect([...CACHEABLE_METHODS].sort()).toEqual(
      ['prompts/list', 'resources/list', 'resources/read', 'resources/templates/list', 'server/discover', 'tools/list'].sort(),
    );
  });

  it('split the requests of one era only', () => {
    expect([...MODERN_ONLY_METHODS].sort()).toEqual(['server/discover', 'subscriptions/listen']);
    expect([...LEGACY_ONLY_METHODS].sort()).toEqual(
      [
        'initialize',
        'logging/setLevel',
        'ping',
        'resources/subscribe',
        'resources/unsubscribe',
        'tasks/cancel',
        'tasks/get',
        'tasks/list',
        'tasks/result',
      ].sort(),
    );
  });
});
