/**
 * Waiting for something to happen, without sleeping: whoever records an event calls `changed()`, and `until`
 * re-checks its condition on each change (a test that never sees it fails by its own timeout).
 */
export interface Changes {
  /** Something was recorded: wake the waiters whose condition now holds. */
  changed(): void;
  /** Resolves once `condition` holds (at once when it already does). */
  until(condition: () => boolean): Promise<void>;
}

/** Creates a {@link Changes}. */
export function changes(): Changes {
  const waiters = new Set<{ condition: () => boolean; resolve: () => void }>();
  return {
    changed() {
      for (const waiter of [...waiters]) {
        if (waiter.condition()) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    },
    until(condition) {
      if (condition()) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ condition, resolve }));
    },
  };
}
