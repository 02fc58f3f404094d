/**
 * The error of a configuration that cannot be used: every problem found, each naming the file, the server and the
 * field — never a value (values may be secrets).
 */

/** One problem in a configuration. */
export interface ConfigIssue {
  /** The file (absolute path or label). */
  readonly file: string;
  /** The server's name, when the problem is inside a server entry. */
  readonly server?: string;
  /** The field, as a path (`env.API_KEY`, `args[2]`, `inputs[0].id`), when there is one. */
  readonly field?: string;
  /** `1:7` (line and column) for a syntax error. */
  readonly position?: string;
  /** What is wrong, in words; never a value of the configuration. */
  readonly message: string;
}

/** Formats one issue: `file: server "name", field "env.KEY": message`. */
export function formatIssue(issue: ConfigIssue): string {
  const where = [
    issue.position === undefined ? issue.file : `${issue.file}:${issue.position}`,
    issue.server === undefined ? undefined : `server ${JSON.stringify(issue.server)}`,
    issue.field === undefined ? undefined : `field ${JSON.stringify(issue.field)}`,
  ].filter((part) => part !== undefined);
  return `${where.join(', ')}: ${issue.message}`;
}

/** A configuration that cannot be used; `issues` lists every problem found. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = issues.map(formatIssue);
    super(lines.length === 1 ? lines[0]! : `${lines.length} problems in the configuration:\n${lines.map((l) => `  - ${l}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** True when `error` is a {@link ConfigError}. */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}
