/**
 * Applying `edit_file` edits to a text: each `oldText` is found exactly (first occurrence, replacement taken
 * literally — `$&` is not special), else line by line ignoring surrounding whitespace (re-indented like the
 * official server), else the edit fails with the nearest region and a diff of what differs. Line endings and the
 * BOM are the caller's: this works on `\n` text.
 */
import { structuredPatch } from 'diff';
import { FsError } from '../sandbox/errors.js';
import { nearestMatch } from './nearest-match.js';

/** One edit. */
export interface Edit {
  oldText: string;
  newText: string;
}

/** How one edit was applied. */
export interface AppliedEdit {
  /** 1-based line where the replaced text started. */
  line: number;
  method: 'exact' | 'whitespace-insensitive';
  /** How many times `oldText` occurred exactly (only the first was replaced). */
  occurrences: number;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let i = text.indexOf(part); i !== -1 && count < 1000; i = text.indexOf(part, i + Math.max(1, part.length))) count++;
  return count;
}

function indentOf(line: string | undefined): string {
  return /^\s*/.exec(line ?? '')?.[0] ?? '';
}

/** The width of an indentation, a tab counting as `tabWidth` columns. */
function widthOf(indent: string, tabWidth: number): number {
  let width = 0;
  for (const char of indent) width += char === '\t' ? tabWidth : 1;
  return width;
}

/**
 * The indentation the file would use for `width` more (or fewer) columns than `base`: the file's own unit — a tab
 * when its lines are tab-indented, else spaces — so an edit sent with spaces keeps a tab-indented file in tabs.
 */
function shift(base: string, columns: number, unit: string, step: number): string {
  if (columns === 0) return base;
  if (columns > 0) return base + (unit === '\t' ? '\t'.repeat(Math.max(1, Math.round(columns / step))) : ' '.repeat(columns));
  let remove = unit === '\t' ? Math.max(1, Math.round(-columns / step)) : -columns;
  let out = base;
  while (remove > 0 && out.length > 0) {
    out = out.slice(0, -1);
    remove--;
  }
  return out;
}

/**
 * Line-by-line match ignoring surrounding whitespace. The replacement keeps the file's indentation: the first line
 * gets the matched line's; a later new line indented as the old line it stands for gets that file line's indentation exactly; one indented more or less gets
 * the difference in the file's unit (a tab per indentation step of the sent text in a tab-indented file).
 */
function flexibleReplace(content: string, edit: Edit): { text: string; line: number } | undefined {
  const oldLines = edit.oldText.split('\n');
  const lines = content.split('\n');
  for (let i = 0; i + oldLines.length <= lines.length; i++) {
    if (!oldLines.every((old, j) => old.trim() === lines[i + j]!.trim())) continue;
    const fileIndents = oldLines.map((_, j) => indentOf(lines[i + j]));
    const unit = fileIndents.some((indent) => indent.includes('\t')) ? '\t' : ' ';
    const sent = [...oldLines, ...edit.newText.split('\n')]
      .map((line) => indentOf(line))
      .filter((indent, j, all) => all.indexOf(indent) === j);
    // The sent text's indentation step (the smallest non-zero difference between its indentations), for tab conversion.
    const widths = sent.map((indent) => widthOf(indent, 4)).sort((a, b) => a - b);
    const steps = widths
      .slice(1)
      .map((w, k) => w - widths[k]!)
      .filter((d) => d > 0);
    const step = steps.length > 0 ? Math.min(...steps) : 4;
    const replaced = edit.newText.split('\n').map((line, j) => {
      const text = line.trimStart();
      if (text === '') return '';
      // The first line takes the matched line's indentation whatever was sent (models often drop it there).
      if (j === 0) return fileIndents[0]! + text;
      // The old line this new line stands for: the same position, or the last old line for lines added after it.
      const ref = Math.min(j, oldLines.length - 1);
      const columns = widthOf(indentOf(line), 4) - widthOf(indentOf(oldLines[ref]), 4);
      return shift(fileIndents[ref]!, columns, unit, step) + text;
    });
    lines.splice(i, oldLines.length, ...replaced);
    return { text: lines.join('\n'), line: i + 1 };
  }
  return undefined;
}

/** A readable explanation of why `edit` did not match, with the nearest region when there is one. */
export function describeMiss(content: string, edit: Edit, index: number, total: number): string {
  const lines = edit.oldText.split('\n').length;
  const head = `Could not find a match for edit ${index + 1} of ${total} (oldText, ${lines} line${lines === 1 ? '' : 's'}); nothing was written.`;
  if (edit.oldText === '') return `${head} oldText is empty.`;
  const near = nearestMatch(content, edit.oldText);
  if (!near || near.similarity < 0.3) return `${head} No similar text was found; read the file again before editing.`;
  const patch = structuredPatch('oldText', 'file', `${edit.oldText.replace(/\n$/, '')}\n`, `${near.text}\n`, '', '', { context: 1 });
  const diff = patch.hunks
    .flatMap((hunk) => hunk.lines)
    .slice(0, 60)
    .join('\n');
  const shown = near.text.length > 4000 ? `${near.text.slice(0, 4000)}\n…` : near.text;
  return (
    `${head}\nThe closest text is at lines ${near.startLine}-${near.endLine} (${Math.round(near.similarity * 100)}% similar):\n` +
    `${shown}\n\nDifferences (- your oldText, + the file):\n${diff}`
  );
}

/** Applies `edits` in order; throws `no_match` (with the diagnostic) when one does not match. */
export function applyEdits(content: string, edits: readonly Edit[]): { text: string; applied: AppliedEdit[] } {
  let text = content;
  const applied: AppliedEdit[] = [];
  edits.forEach((edit, index) => {
    const at = edit.oldText === '' ? -1 : text.indexOf(edit.oldText);
    if (at !== -1) {
      applied.push({ line: lineOf(text, at), method: 'exact', occurrences: countOccurrences(text, edit.oldText) });
      text = text.slice(0, at) + edit.newText + text.slice(at + edit.oldText.length);
      return;
    }
    const flexible = edit.oldText === '' ? undefined : flexibleReplace(text, edit);
    if (!flexible) throw new FsError('no_match', describeMiss(text, edit, index, edits.length));
    applied.push({ line: flexible.line, method: 'whitespace-insensitive', occurrences: 0 });
    text = flexible.text;
  });
  return { text, applied };
}
