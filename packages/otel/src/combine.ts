/**
 * Several instrumentations as one (tracing and metrics on the same server): each sees every operation; their
 * `_meta` keys are merged; the first one's `run` wraps the handler (only tracing has one).
 */
import type { Instrumentation, OperationObserver, SessionObserver } from '@wiremcp/jsonrpc';

/** One {@link Instrumentation} made of `parts`, in order; `undefined` parts are skipped. */
export function combineInstrumentation(...parts: Array<Instrumentation | undefined>): Instrumentation {
  const list = parts.filter((part): part is Instrumentation => part !== undefined);
  if (list.length === 1) return list[0]!;
  return {
    start(operation) {
      const observers: OperationObserver[] = [];
      let meta: Record<string, string> | undefined;
      let run: OperationObserver['run'];
      let runner: OperationObserver | undefined;
      for (const part of list) {
        const observer = part.start(operation);
        if (observer === undefined) continue;
        observers.push(observer);
        if (observer.meta !== undefined) meta = { ...meta, ...observer.meta };
        if (run === undefined && observer.run !== undefined) {
          run = observer.run;
          runner = observer;
        }
      }
      if (observers.length === 0) return undefined;
      if (observers.length === 1) return observers[0];
      const end: OperationObserver['end'] = (outcome) => {
        let failure: unknown;
        for (const observer of observers) {
          try {
            observer.end(outcome);
          } catch (error) {
            failure ??= error;
          }
        }
        if (failure !== undefined) throw failure;
      };
      return {
        ...(meta === undefined ? {} : { meta }),
        ...(run === undefined ? {} : { run: <T>(fn: () => T): T => run.call(runner, fn) as T }),
        end,
      };
    },
    session(session) {
      const observers = list.map((part) => part.session?.(session)).filter((o): o is SessionObserver => o !== undefined);
      if (observers.length === 0) return undefined;
      return { end: () => observers.forEach((observer) => observer.end()) };
    },
  };
}
