/**
 * The status table as text: one line per server with its state, transport, era and revision, what it offers, its
 * restarts and its last failure — what `wiremcp host status` prints.
 */
import type { ServerStatus } from './types.js';

const HEADINGS = ['SERVER', 'STATE', 'TRANSPORT', 'ERA', 'TOOLS', 'PROMPTS', 'RESOURCES', 'RESTARTS', 'LAST ERROR'];

/** Options of {@link formatStatusTable}. */
export interface StatusTableOptions {
  /** Longest last-error text shown, in characters (default 100; the full text is in the status rows). */
  readonly maxErrorLength?: number;
}

function transportOf(row: ServerStatus): string {
  if (row.connectedOver === undefined || row.connectedOver === 'stdio') return row.transport;
  return `${row.transport} (${row.connectedOver})`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The rows as an aligned text table (no colours; a trailing newline). */
export function formatStatusTable(rows: readonly ServerStatus[], options: StatusTableOptions = {}): string {
  const max = options.maxErrorLength ?? 100;
  const cells = rows.map((row) => [
    row.name,
    row.state === 'retrying' && row.retryAt !== undefined ? `retrying (attempt ${row.failures + 1})` : row.state,
    transportOf(row),
    row.era === undefined ? '-' : `${row.era} ${row.protocolVersion ?? ''}`.trim(),
    String(row.counts.tools),
    String(row.counts.prompts),
    String(row.counts.resources + row.counts.resourceTemplates),
    String(row.restarts),
    row.lastError === undefined ? '' : oneLine(row.lastError, max),
  ]);
  const widths = HEADINGS.map((heading, column) => Math.max(heading.length, ...cells.map((line) => line[column]!.length)));
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return `${[HEADINGS, ...cells].map(format).join('\n')}\n`;
}
