import type { InputParamsOf, InputRequestMethod } from '@wiremcp/protocol';

/** One input asked for in a round: a method and its params, as a 2026-07-28 `inputRequests` entry carries them. */
export interface RequestedInput<M extends InputRequestMethod = InputRequestMethod> {
  method: M;
  params: InputParamsOf<M>;
}

/**
 * The MRTR bookkeeping of one round of a 2026-07-28 request: the answers available to the handler (from the
 * client's `inputResponses`, and from earlier rounds through the verified `requestState`) and the inputs it asked
 * for that are still missing.
 */
export class InputRound {
  count = 0;
  #index = 0;
  /** Created on the first `ask`: most rounds ask for nothing. */
  #requested: Record<string, RequestedInput> | undefined;

  constructor(readonly answers: Readonly<Record<string, unknown>>) {}

  /** The inputs asked for and still missing, by key. */
  get requested(): Record<string, RequestedInput> {
    return (this.#requested ??= {});
  }

  /** The generated key of the next input of `kind` (`elicit-0`, `sample-1`, …). */
  nextKey(kind: string): string {
    return `${kind}-${this.#index++}`;
  }

  /** Records an input the handler needs and does not have yet. */
  ask<M extends InputRequestMethod>(key: string, method: M, params: InputParamsOf<M>): void {
    this.requested[key] = { method, params } as RequestedInput;
    this.count += 1;
  }
}
