/**
 * Which view of the allowed directories a request gets. Legacy sessions: the client's roots are asked once
 * (`roots/list`) and kept per session until `notifications/roots/list_changed`, after which the next request asks
 * again — a change applies to the requests that arrive after it. 2026-07-28 requests carry no session: the roots
 * come with each request (an input request answered by the client's retry), under the stable key `roots`.
 * A client that declares roots but does not answer in time gets an error, not the operator's full directories.
 */
import type { HandlerContext } from '@wiremcp/server';
import { AccessView } from './access-view.js';
import { FsError } from './errors.js';
import type { PinnedRoot } from './pinned-roots.js';
import { viewForRoots, type ClientRoots, type RootsMode } from './roots-policy.js';

/** The key of the roots input request in 2026-07-28 input-required results. */
export const ROOTS_INPUT_KEY = 'roots';

/** Per-session roots views. */
export class RootsTracker {
  readonly #cache = new WeakMap<object, Promise<AccessView>>();
  readonly #operator: AccessView;

  constructor(
    readonly roots: readonly PinnedRoot[],
    readonly mode: RootsMode,
    readonly timeoutMs: number,
  ) {
    this.#operator = AccessView.of(roots);
  }

  /** The operator's view. */
  get operator(): AccessView {
    return this.#operator;
  }

  /** Forgets a session's roots (its client said they changed). */
  invalidate(session: object | undefined): void {
    if (session) this.#cache.delete(session);
  }

  /**
   * The view for the request behind `ctx`. Rejects with `InputRequiredError` (let it propagate) in the first round
   * of a 2026-07-28 request from a client with roots.
   */
  async viewFor(ctx: HandlerContext): Promise<AccessView> {
    if (this.mode === 'ignore' || !ctx.clientCapabilities.roots) return this.#operator;
    if (ctx.era === 'modern') {
      const listed = (await ctx.listRoots({ key: ROOTS_INPUT_KEY })) as ClientRoots;
      return viewForRoots(this.roots, listed, this.mode);
    }
    const session = ctx.scope as object;
    let view = this.#cache.get(session);
    if (!view) {
      view = this.#ask(ctx);
      this.#cache.set(session, view);
      // A failed answer is not remembered: the next request asks again.
      view.catch(() => {
        if (this.#cache.get(session) === view) this.#cache.delete(session);
      });
    }
    return view;
  }

  /**
   * The view for a request that cannot carry an input round in 2026-07-28 (`completion/complete`, a listen
   * stream's subscriptions): in a legacy session the client's roots as for any request; a 2026-07-28 request
   * cannot ask for them, so it gets the operator's directories.
   */
  viewForSideRequest(ctx: HandlerContext): Promise<AccessView> {
    return ctx.era === 'modern' ? Promise.resolve(this.#operator) : this.viewFor(ctx);
  }

  async #ask(ctx: HandlerContext): Promise<AccessView> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new FsError('roots_unavailable', `The client did not list its roots within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      const listed = (await Promise.race([ctx.listRoots(), timeout])) as ClientRoots;
      return await viewForRoots(this.roots, listed, this.mode);
    } catch (error) {
      if (error instanceof FsError) throw error;
      throw new FsError(
        'roots_unavailable',
        'The client declares roots but did not list them, so the directories it allows are unknown ' +
          '(the operator can start the server with --roots ignore)',
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
