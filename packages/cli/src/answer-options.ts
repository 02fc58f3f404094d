/**
 * The flags with which a command answers the server's own requests (sampling, elicitation, roots); what they do is
 * in `input-answers.ts`, loaded only when a command runs.
 */
import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Adds `--root`, `--elicit-answers`, `--sampling-reply` and `--no-interactive` to `command`. */
export function withAnswerOptions(command: Command): Command {
  return command
    .option('--root <dir>', 'a root the server may use: a directory, or a URI (repeatable; declares roots)', collect)
    .option('--elicit-answers <file>', "a JSON file answering the server's elicitations, in order (declares elicitation)")
    .option('--sampling-reply <text>', "the model's reply to the server's sampling requests, or @FILE (declares sampling)")
    .option('--no-interactive', 'never ask on the terminal (by default a terminal answers what no flag does)');
}
