// The filesystem benchmark's markdown: one row per operation and server, medians, ranges, the per-repetition
// ratio to the official server, how many bytes the answer was and how many calls it took.

/** One row. */
export interface FsCase {
  id: string;
  label: string;
  server: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median of (this ÷ official) within each repetition, when the official server does the same thing. */
  ratio: number | undefined;
  responseBytes: number;
  calls: number;
  check: string;
}

/** A run. */
export interface FsReport {
  date: string;
  command: string;
  node: string;
  os: string;
  cpu: string;
  cores: number;
  loadAverage: number[];
  gitCommit: string;
  officialVersion: string;
  repetitions: number;
  wallTimeSec: number;
  tree: { files: number; directories: number; bigFileBytes: number };
  cases: FsCase[];
  peakRssMb: Record<string, number>;
}

const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mb = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);

/** The report as markdown. */
export function renderFilesystemReport(report: FsReport): string {
  const lines = [
    '# Filesystem server benchmark',
    '',
    `\`${report.command}\` — ${report.date}, ${report.repetitions} interleaved repetitions, ${report.wallTimeSec.toFixed(0)} s; ` +
      `Node ${report.node}, ${report.os}, ${report.cores} × ${report.cpu}; load average ${report.loadAverage.map((l) => l.toFixed(1)).join(' ')}` +
      `${report.gitCommit ? `; commit ${report.gitCommit}` : ''}.`,
    '',
    `Tree: ${report.tree.files.toLocaleString('en-US')} files in ${report.tree.directories} directories, and one ` +
      `${(report.tree.bigFileBytes / 1024 / 1024).toFixed(1)} MB text file. Official server: @modelcontextprotocol/server-filesystem ` +
      `${report.officialVersion}. Client: McpClient (legacy era) over stdio for every server; time from the call to its result, ` +
      'after one discarded warm-up call of the same operation in the same session.',
    '',
    '| operation | server | median ms | range ms | × official | answer | calls | check |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...report.cases.map(
      (c) =>
        `| ${c.label} | ${c.server} | ${ms(c.medianMs)} | ${ms(c.minMs)}–${ms(c.maxMs)} | ${c.ratio === undefined ? '—' : `${c.ratio.toFixed(2)}×`} | ` +
        `${mb(c.responseBytes)} | ${c.calls} | ${c.check} |`,
    ),
    '',
    'The official server has no content search; its directory_tree and read_text_file have no limits, so the rows "limits raised to the ' +
      'whole answer" run ours with `--max-entries 50000 --max-results 50000 --max-read-bytes 32m --max-response-bytes 64m` to do the same ' +
      'work. With its default limits ours answers with a bounded part and says how to get the rest.',
    '',
    `Peak server memory (VmHWM, median): ${Object.entries(report.peakRssMb)
      .map(([server, value]) => `${server} ${value.toFixed(0)} MB`)
      .join('; ')}.`,
    '',
  ];
  return lines.join('\n');
}
