/**
 * The error a broken table file produces. It carries every problem found, not just the first, so that
 * whoever edits `a13.yaml` can fix the file in one pass; each problem already names the file and, where
 * there is one, the row.
 */

/** How many problems the message shows before summarizing the rest (`problems` always holds all). */
const MAX_PROBLEMS_IN_MESSAGE = 20;

/**
 * Thrown by `parseTable`/`loadTable` when the table cannot be used. `problems` lists one line per
 * problem, each starting with the file name (`a13.yaml:57: row 42 (eat/past_simple/3sg): …`,
 * `a13.yaml: missing row go/simple_future/2sg`). The message repeats them, so printing the error to
 * stderr is enough for a user to fix the file.
 */
export class TableError extends Error {
  /** The file name as it appears in the problems. */
  readonly fileName: string;
  /** Every problem found, one line each, in the order found. */
  readonly problems: readonly string[];

  constructor(fileName: string, problems: readonly string[]) {
    super(formatMessage(fileName, problems));
    this.name = 'TableError';
    this.fileName = fileName;
    this.problems = [...problems];
  }
}

function formatMessage(fileName: string, problems: readonly string[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const shown = problems.slice(0, MAX_PROBLEMS_IN_MESSAGE).map((p) => `  ${p}`);
  const rest = problems.length - shown.length;
  if (rest > 0) shown.push(`  … and ${rest} more`);
  return [`${fileName}: invalid §A13 table (${count}):`, ...shown].join('\n');
}
