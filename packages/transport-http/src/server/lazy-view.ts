/**
 * Views that stand in for a web object (a `Request`, a `Response`) without building it: the view defines the
 * members its own code reads, and is an instance of the web class for `instanceof`; every other member of the
 * class is served by a real object the view builds on first use.
 */

/**
 * Makes `view` (a class's prototype) an instance of `web` (the web class's prototype) and defines on it a getter
 * for each member of `web` not named in `own`, reading that member from `real(this)` (functions bound to it).
 */
export function delegateToReal<View extends object>(view: View, web: object, own: ReadonlySet<string>, real: (self: View) => object): void {
  Object.setPrototypeOf(view, web);
  for (const key of Object.getOwnPropertyNames(web)) {
    if (own.has(key)) continue;
    Object.defineProperty(view, key, {
      configurable: true,
      get(this: View) {
        const target = real(this);
        const value = (target as Record<string, unknown>)[key];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
