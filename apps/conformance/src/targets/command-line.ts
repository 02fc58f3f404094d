/**
 * Splitting a `--command "<cmd>"` string into argv the way a POSIX shell would split words — single quotes,
 * double quotes and backslashes — without any expansion (no variables, globs or operators): the app runs the
 * command without a shell so that it can stop exactly what it started.
 */

/** Thrown for an unterminated quote or a trailing backslash. */
export class CommandLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandLineError';
  }
}

/** Splits a command line into words. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && index + 1 < line.length && '"\\$`'.includes(line[index + 1]!)) word += line[++index];
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (index + 1 >= line.length) throw new CommandLineError('the command ends with a backslash');
      word += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new CommandLineError(`unterminated ${quote === '"' ? 'double' : 'single'} quote in the command`);
  if (inWord) words.push(word);
  return words;
}
