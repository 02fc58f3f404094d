/**
 * Writing a run's files: `results.json` (always), `report.html` (unless `--no-html`) and JUnit XML (`--junit`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderHtmlReport } from './html-report.js';
import { renderJunit } from './junit.js';
import type { RunReport } from './run-report.js';

/** Where the files went. */
export interface WrittenReports {
  readonly results: string;
  readonly html?: string;
  readonly junit?: string;
}

/** Writes the reports of a run. */
export function writeReports(
  report: RunReport,
  outDir: string,
  options: { readonly html: boolean; readonly junit?: string },
): WrittenReports {
  mkdirSync(outDir, { recursive: true });
  const results = join(outDir, 'results.json');
  writeFileSync(results, `${JSON.stringify(report, null, 2)}\n`);
  const html = options.html ? join(outDir, 'report.html') : undefined;
  if (html) writeFileSync(html, renderHtmlReport(report));
  const junit = options.junit === undefined ? undefined : resolve(options.junit);
  if (junit) {
    mkdirSync(dirname(junit), { recursive: true });
    writeFileSync(junit, renderJunit(report));
  }
  return { results, ...(html ? { html } : {}), ...(junit ? { junit } : {}) };
}
