/**
 * How an HTTP session (Streamable HTTP, or the HTTP+SSE transport of 2024-11-05) stops what it still reads when it
 * closes, in one place for both.
 */

/** What a session may still be reading: response readers, the requests' abort controllers, the read loops. */
export interface OpenReads {
  readonly readers: Iterable<ReadableStreamDefaultReader<Uint8Array>>;
  readonly controllers: Iterable<AbortController>;
  readonly loops: Iterable<Promise<unknown>>;
}

/** How long a closing session waits for its read loops to settle, in ms. */
export const END_READS_MS = 2000;

/**
 * Cancels every reader first (aborting a request does not always settle a pending read: an SSE stream the server
 * keeps open), aborts every request — both before this returns its promise — then waits for the read loops to
 * settle, at most `ms`: a body that neither cancel nor abort settles must not hold the cell (the timer keeps Node
 * alive meanwhile). Never rejects.
 */
export async function endReads(open: OpenReads, ms = END_READS_MS): Promise<void> {
  for (const reader of open.readers) reader.cancel().catch(() => {});
  for (const controller of open.controllers) controller.abort();
  const loops = [...open.loops];
  if (loops.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.allSettled(loops), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
