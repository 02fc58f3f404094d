/**
 * Runs independent tasks with bounded concurrency, in order of submission, and stops scheduling new ones once
 * aborted (tasks already running finish — each cell stops its own server).
 */

/**
 * Runs `task` over `items` with at most `jobs` at a time. `onDone` sees each result as it completes. Results
 * come back in item order; items never started because of `signal` are left out.
 */
export async function runPool<T, R>(
  items: readonly T[],
  jobs: number,
  task: (item: T) => Promise<R>,
  onDone?: (result: R, item: T) => void,
  signal?: AbortSignal,
): Promise<R[]> {
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      const result = await task(item);
      results[index] = result;
      onDone?.(result, item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results.filter((result): result is R => result !== undefined);
}
