/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as `signal` aborts (the client cancelled
 * the request, or the connection closed). Tools use it for every delay, so a cancelled call stops at once and
 * leaves no timer behind to keep the process alive.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
