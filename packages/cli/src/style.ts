/**
 * Colours of the human output: on when the stream is a terminal (picocolors' detection: `NO_COLOR`,
 * `FORCE_COLOR`, `--no-color`, `TERM=dumb` are honoured), off otherwise.
 */
import picocolors from 'picocolors';

/** The styles the output uses. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/** The styles for a stream: coloured when `enabled`. */
export function createStyle(enabled: boolean): Style {
  const colours = picocolors.createColors(enabled);
  return {
    bold: colours.bold,
    dim: colours.dim,
    red: colours.red,
    green: colours.green,
    yellow: colours.yellow,
    cyan: colours.cyan,
    magenta: colours.magenta,
  };
}

/** Whether a stream should be coloured: picocolors' own answer, and only for a terminal. */
export function colourFor(stream: { isTTY?: boolean }): boolean {
  return picocolors.isColorSupported && (stream.isTTY === true || process.env.FORCE_COLOR !== undefined);
}
