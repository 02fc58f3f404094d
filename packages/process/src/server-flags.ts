/** Flags of a command line, in `node:util` `parseArgs` form (`--page-size N`: `{ 'page-size': { type: 'string' } }`). */
export type ServerFlags = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** The parsed value of each flag given, by flag name; absent flags are missing or `undefined`. */
export type FlagValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

/**
 * A bad command line. Thrown by a bin's `parseArgs` for a value it refuses; the server main prints the message
 * on one line followed by a hint to run `--help`, and exits with code 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
