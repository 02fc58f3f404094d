/**
 * Which view of the allowed directories a request gets. Legacy sessions: the client's roots are asked once
 * (`roots/list`) and kept per session until `notifications/roots/list_changed`, after which the next request asks
 * again — a change applies to the requests that arrive after it. 2026-07-28 requests carry no session: the roots
 * come with each request (an input request answered by the client's retry), under the stable key `roots`.
 * A client that declares roots but cannot list them (an error answer, or none within the timeout) gets the operator's
 * directories, as the official server does — roots only ever narrow them here, so this grants nothing the operator
 * did not — and the fallback is logged and noted in each result; with `refuse` it gets a `roots_unavailable` error.
 * A fallback after a timeout is kept for the session until the late answer arrives (then the roots apply) or the
 * client says its roots changed, so requests do not each wait for the timeout; after an error answer the next
 * request asks again.
 */
import type { HandlerContext } from '@wiremcp/server';
import { AccessView } from './access-view.js';
import { FsError } from './errors.js';
import type { PinnedRoot } from './pinned-roots.js';
import { InputRequiredError } from '@wiremcp/server';
import { viewForRoots, type ClientRoots, type RootsFallback, type RootsMode } from './roots-policy.js';

/** The key of the roots input request in 2026-07-28 input-required results. */
export const ROOTS_INPUT_KEY = 'roots';

/** Per-session roots views. */
export class RootsTracker {
  readonly #cache = new WeakMap<object, Promise<AccessView>>();
  readonly #operator: AccessView;

  readonly #log: (line: string) => void;
  #lastLogged = '';

  constructor(
    readonly roots: readonly PinnedRoot[],
    readonly mode: RootsMode,
    readonly timeoutMs: number,
    readonly fallback: RootsFallback = 'operator',
    log: (line: string) => void = () => {},
  ) {
    this.#operator = AccessView.of(roots);
    this.#log = log;
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
      try {
        const listed = (await ctx.listRoots({ key: ROOTS_INPUT_KEY })) as ClientRoots;
        return await viewForRoots(this.roots, listed, this.mode);
      } catch (error) {
        // A 2026-07-28 client has no way to answer an input request with an error: a malformed answer is its failure.
        if (error instanceof InputRequiredError) throw error;
        return this.#fallBack(describe(error));
      }
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

  /** The fallback view for a client whose roots could not be listed (or the error, under `refuse`). */
  #fallBack(reason: string): AccessView {
    if (this.fallback === 'refuse') {
      throw new FsError(
        'roots_unavailable',
        `The client declares roots but did not list them (${reason}), so the directories it allows are unknown ` +
          '(the operator can start the server with --roots ignore)',
      );
    }
    const notice = `roots/list failed (${reason}); the operator's directories apply until the client lists its roots`;
    if (notice !== this.#lastLogged) {
      this.#lastLogged = notice;
      this.#log(`warning: ${notice} (--roots-fallback refuse refuses instead)`);
    }
    return new AccessView(this.#operator.areas, false, notice);
  }

  #ask(ctx: HandlerContext): Promise<AccessView> {
    const session = ctx.scope as object;
    const answer = Promise.resolve()
      .then(() => ctx.listRoots())
      .then((listed) => viewForRoots(this.roots, listed as ClientRoots, this.mode));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    return Promise.race([answer, timedOut])
      .then((outcome) => {
        if (outcome !== 'timeout') return outcome;
        const fallback = this.#fallBack(`no answer within ${this.timeoutMs} ms`);
        // Kept for the session meanwhile; the late answer replaces it (or, if it fails, the next request asks again).
        answer.then(
          (view) => {
            if (this.#cache.has(session)) this.#cache.set(session, Promise.resolve(view));
          },
          () => this.#cache.delete(session),
        );
        return fallback;
      })
      .catch((error: unknown) => {
        // `refuse` (thrown by #fallBack after a timeout) propagates; viewFor forgets the failed promise.
        if (error instanceof FsError) throw error;
        // An error answer is not remembered: the next request asks again.
        this.#cache.delete(session);
        return this.#fallBack(describe(error));
      })
      .finally(() => clearTimeout(timer));
  }
}

/** A short, bounded description of why the client's roots/list failed (its message may come from the peer). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${message.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200)}`;
}
