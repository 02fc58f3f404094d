/**
 * `edit_file` end to end: read the file (a text file, not too large), apply the edits to its `\n` form, produce the
 * diff, and — unless it is a dry run or nothing changed — write it back (in place by default) with its BOM and
 * line endings as they were, refusing if the file changed since it was read.
 */
import { createTwoFilesPatch } from 'diff';
import type { Limits } from '../config.js';
import type { AccessView } from '../sandbox/access-view.js';
import { FsError } from '../sandbox/errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { writeAll, writeFileConfined, type ExpectedFile, type WriteMode } from '../sandbox/write-ops.js';
import { applyEdits, type AppliedEdit, type Edit } from './edit-text.js';
import { BOM_LENGTH, binaryReason, hasBom, lineEndingOf, type LineEnding } from './text-format.js';

/** What an edit did. */
export interface EditOutcome {
  /** The unified diff (client path in the headers), fenced for markdown. */
  fencedDiff: string;
  applied: AppliedEdit[];
  changed: boolean;
  written: boolean;
  lineEnding: LineEnding;
  /** The line ending written when the file mixed them (all lines get the dominant one). */
  normalizedTo?: 'lf' | 'crlf';
  bom: boolean;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Reads a whole text file for editing; refuses binary, non-UTF-8 and over-large files. */
async function readForEdit(
  sandbox: Sandbox,
  view: AccessView,
  input: unknown,
  limits: Limits,
): Promise<{ bytes: Buffer; expected: ExpectedFile; path: string }> {
  const opened = await sandbox.openFile(view, input);
  try {
    if (opened.stat.size > limits.maxEditBytes) {
      throw new FsError('too_large', `File too large to edit (${opened.stat.size} bytes, limit ${limits.maxEditBytes}): ${opened.path}`);
    }
    const bytes = await opened.file.readFile();
    return { bytes, expected: { ino: opened.stat.ino, size: bytes.length, mtimeMs: opened.stat.mtimeMs }, path: opened.path };
  } finally {
    await sandbox.closeFile(opened);
  }
}

function fence(diff: string): string {
  let ticks = 3;
  while (diff.includes('`'.repeat(ticks))) ticks++;
  const marks = '`'.repeat(ticks);
  return `${marks}diff\n${diff}${marks}\n\n`;
}

/** Applies `edits` to the file `input` names. */
export async function editFile(
  sandbox: Sandbox,
  view: AccessView,
  input: unknown,
  edits: readonly Edit[],
  dryRun: boolean,
  limits: Limits,
  mode: WriteMode = 'in-place',
): Promise<EditOutcome> {
  const { bytes, expected, path } = await readForEdit(sandbox, view, input, limits);
  const bom = hasBom(bytes);
  const body = bom ? bytes.subarray(BOM_LENGTH) : bytes;
  const reason = binaryReason(body);
  if (reason) throw new FsError('binary_file', `Not a text file: ${path} (${reason}); it cannot be edited`);
  let text: string;
  try {
    text = strictDecoder.decode(body);
  } catch {
    throw new FsError('binary_file', `Not valid UTF-8: ${path}; editing it would corrupt it`);
  }
  const lineEnding = lineEndingOf(text);
  const crlfLines = (text.match(/\r\n/g) ?? []).length;
  const lfLines = (text.match(/\n/g) ?? []).length - crlfLines;
  const useCrlf = lineEnding === 'crlf' || (lineEnding === 'mixed' && crlfLines >= lfLines);
  const original = text.replace(/\r\n/g, '\n');
  const normalized = edits.map((edit) => ({ oldText: edit.oldText.replace(/\r\n/g, '\n'), newText: edit.newText.replace(/\r\n/g, '\n') }));
  const { text: edited, applied } = applyEdits(original, normalized);
  const changed = edited !== original;
  const diff = createTwoFilesPatch(path, path, original, edited, 'original', 'modified');
  const outcome: EditOutcome = { fencedDiff: fence(diff), applied, changed, written: false, lineEnding, bom };
  if (lineEnding === 'mixed' && changed) outcome.normalizedTo = useCrlf ? 'crlf' : 'lf';
  if (dryRun || !changed) return outcome;
  const output = Buffer.from((bom ? '\uFEFF' : '') + (useCrlf ? edited.replace(/\n/g, '\r\n') : edited), 'utf8');
  await writeFileConfined(sandbox, view, input, (file) => writeAll(file, output), { expected, mode });
  outcome.written = true;
  return outcome;
}
