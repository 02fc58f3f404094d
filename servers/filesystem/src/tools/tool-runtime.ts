/**
 * What every tool call runs inside: the request's view of the allowed directories, a signal that aborts on
 * cancellation or when the call's time budget is spent, and the mapping of failures to `isError` results with a
 * stable code. Input-required rounds and protocol errors pass through untouched.
 */
import { InputRequiredError, type CallToolResult, type HandlerContext } from '@wiremcp/server';
import { RpcError } from '@wiremcp/protocol';
import type { FilesystemConfig, Limits } from '../config.js';
import type { AccessView } from '../sandbox/access-view.js';
import { FsError } from '../sandbox/errors.js';
import type { RootsTracker } from '../sandbox/roots-tracker.js';
import type { Sandbox } from '../sandbox/sandbox.js';

/** The `_meta` key carrying a tool error's stable code. */
export const ERROR_CODE_META = 'dev.wiremcp/errorCode';

/** The per-call state a tool works with. */
export interface CallScope {
  readonly view: AccessView;
  /** Aborts on cancellation or when the time budget is spent. */
  readonly signal: AbortSignal;
  /** True once the time budget is spent (as opposed to a cancellation). */
  readonly budgetSpent: () => boolean;
  readonly ctx: HandlerContext;
}

/** What tools share. */
export interface ToolServices {
  readonly sandbox: Sandbox;
  readonly roots: RootsTracker;
  readonly config: FilesystemConfig;
  readonly limits: Limits;
}

/** A tool failure as an `isError` result. */
export function errorResult(error: FsError): CallToolResult {
  return { content: [{ type: 'text', text: error.message }], isError: true, _meta: { [ERROR_CODE_META]: error.code } };
}

/** Adds a view's notice (a roots fallback) to a result, so the client and the model learn of it too. */
function withNotice(result: CallToolResult, view: AccessView | undefined): CallToolResult {
  if (view?.notice === undefined) return result;
  return { ...result, content: [...(result.content ?? []), { type: 'text', text: `[${view.notice}]` }] };
}

/** Throws the right error when the call's signal has aborted. */
export function throwIfStopped(scope: CallScope): void {
  if (!scope.signal.aborted) return;
  if (scope.budgetSpent()) {
    throw new FsError('time_budget_exceeded', 'The call ran out of its time budget; narrow it (a smaller range, path or depth)');
  }
  throw new FsError('cancelled', 'The call was cancelled');
}

/**
 * Runs a tool body with its scope. FsErrors become `isError` results; input-required and protocol errors propagate;
 * anything else becomes an `io_error` result without its (possibly host-revealing) text, reported to `onInternal`.
 */
export async function runTool(
  services: ToolServices,
  ctx: HandlerContext,
  body: (scope: CallScope) => Promise<CallToolResult>,
  onInternal: (error: unknown) => void,
): Promise<CallToolResult> {
  const budget = new AbortController();
  let spent = false;
  const timer = setTimeout(() => {
    spent = true;
    budget.abort();
  }, services.limits.timeBudgetMs);
  const onCancel = (): void => budget.abort();
  if (ctx.signal.aborted) budget.abort();
  else ctx.signal.addEventListener('abort', onCancel, { once: true });
  let view: AccessView | undefined;
  try {
    view = await services.roots.viewFor(ctx);
    return withNotice(await body({ view, signal: budget.signal, budgetSpent: () => spent, ctx }), view);
  } catch (error) {
    if (error instanceof InputRequiredError || error instanceof RpcError) throw error;
    if (error instanceof FsError) return withNotice(errorResult(error), view);
    onInternal(error);
    return errorResult(new FsError('io_error', 'The operation failed with an unexpected error'));
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onCancel);
  }
}
