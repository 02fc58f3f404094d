/**
 * What the client's `on…()` methods return: a function that removes the listener, carrying a `ready` promise that
 * says when the notifications it listens to can arrive. In 2026-07-28 list changes and resource updates exist only
 * on a listen stream, which the client opens by itself when the first listener needs it; a change the server makes
 * before that stream is acknowledged is not heard, so a caller that must not miss one awaits `ready` first.
 */

/** Removes the listener when called (idempotent); `ready` is described in the module comment. */
export interface ListenerHandle {
  (): void;
  /**
   * Resolves once notifications of this listener's method can arrive (legacy: at once; 2026-07-28: once the
   * client's listen stream carrying them is acknowledged). Rejects with the listen stream's failure, or with
   * `CAPABILITY_NOT_SUPPORTED` when the server does not send them (no `listChanged` for that list, or the
   * acknowledgement leaves it out). Before connecting, settles once `connect()` opened the stream. Nothing is
   * computed until `ready` is read, and a rejection nobody reads is not reported as unhandled.
   */
  readonly ready: Promise<void>;
}

/** Wraps `remove` into a {@link ListenerHandle} whose `ready` is `whenReady()`, computed once when first read. */
export function listenerHandle(remove: () => void, whenReady: () => Promise<void>): ListenerHandle {
  let ready: Promise<void> | undefined;
  return Object.defineProperty(() => remove(), 'ready', {
    get(): Promise<void> {
      if (!ready) {
        ready = whenReady();
        ready.catch(() => {});
      }
      return ready;
    },
    enumerable: true,
  }) as ListenerHandle;
}
