/**
 * What the official suite's output says about the client programs it ran in the client leg: how many ran out of time,
 * and what it quoted of each failed one.
 */

/** How many client programs the suite reports as timed out in a run's output (its own `Client timed out` lines). */
export function clientTimeouts(output: string): number {
  return output.match(/Client timed out after \d+ ?ms/g)?.length ?? 0;
}

/**
 * What the suite printed about client programs that failed (its `Client exited with code` and `Client timed out`
 * reports, with the program's stdout and stderr it quotes), at most `limit` characters: the cause of a failed client
 * scenario is there, and the suite's per-scenario files are gone with the run's scratch directory.
 */
export function clientFailureReports(output: string, limit = 6_000): string {
  const reports = `\n${output}`
    .split(/\n(?=Client exited with code|Client timed out)/)
    .slice(1)
    .map((report) => report.split(/\n(?=Running |\S+ (?:passed|failed))/)[0]!.trim());
  const text = reports.join('\n---\n');
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}
