// `npm run bench -- filesystem`: the wiremcp filesystem server beside the official @modelcontextprotocol/server-filesystem
// on the same generated tree, driven by the same client (McpClient, legacy era, over stdio): search by name, content
// search, directory_tree, and reading an 18 MB file. Interleaved repetitions (the order rotates), medians, and the
// ratio wiremcp ÷ official computed within each repetition. Writes results/filesystem.md and .json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { parseBenchFlags } from '../bench-flags.js';
import { median, rotate } from '../stats.js';
import { makeBenchTree, type BenchTree } from './fs-tree.js';
import { renderFilesystemReport, type FsCase, type FsReport } from './fs-report.js';

const require = createRequire(import.meta.url);
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REPO_ROOT = resolve(PACKAGE_ROOT, '../..');
const OURS_BIN = join(REPO_ROOT, 'servers/filesystem/dist/bin.js');

function officialBin(): { bin: string; version: string } {
  const manifestPath = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin: Record<string, string> };
  return { bin: join(dirname(manifestPath), manifest.bin['mcp-server-filesystem']!), version: manifest.version };
}

/** A server under test. */
interface ServerSpec {
  id: string;
  label: string;
  args: (tree: BenchTree) => string[];
}

/** One measured operation: which server runs it, with which calls (one call, or pages until done). */
interface Operation {
  id: string;
  label: string;
  server: string;
  run: (client: McpClient, tree: BenchTree) => Promise<{ bytes: number; calls: number; check: string }>;
}

const BIG = ['--max-entries', '50000', '--max-results', '50000', '--max-read-bytes', '32m', '--max-response-bytes', '64m'];

function servers(official: string): ServerSpec[] {
  return [
    { id: 'official', label: 'official', args: (tree) => [official, tree.root] },
    { id: 'wiremcp', label: 'wiremcp (default limits)', args: (tree) => [OURS_BIN, tree.root] },
    { id: 'wiremcp-big', label: 'wiremcp (limits raised to the whole answer)', args: (tree) => [OURS_BIN, ...BIG, tree.root] },
  ];
}

type Result = { content: Array<{ text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

async function one(client: McpClient, name: string, args: Record<string, unknown>): Promise<{ result: Result; bytes: number }> {
  const result = (await client.callTool(name, args, { timeoutMs: 300_000 })) as Result;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text ?? ''}`);
  return { result, bytes: Buffer.byteLength(JSON.stringify(result)) };
}

const text = (result: Result): string => result.content[0]?.text ?? '';

function operations(): Operation[] {
  const byName = (server: string): Operation => ({
    id: 'search-name',
    label: 'search by name (`**/f7.ts`, 200 matches)',
    server,
    run: async (client, tree) => {
      const { result, bytes } = await one(client, 'search_files', { path: tree.root, pattern: '**/f7.ts' });
      return { bytes, calls: 1, check: `${text(result).split('\n').length} paths` };
    },
  });
  const tree = (server: string, label: string, args: Record<string, unknown> = {}): Operation => ({
    id: `tree${server === 'wiremcp' ? '-default' : ''}`,
    label,
    server,
    run: async (client, t) => {
      const { result, bytes } = await one(client, 'directory_tree', { path: t.root, ...args });
      const entries = result.structuredContent?.entries;
      return { bytes, calls: 1, check: typeof entries === 'number' ? `${entries} entries` : `${text(result).length} chars` };
    },
  });
  const readWhole = (server: string): Operation => ({
    id: 'read-18mb',
    label: 'read the 18 MB file, whole (one call)',
    server,
    run: async (client, t) => {
      const { result, bytes } = await one(client, 'read_text_file', { path: t.bigFile });
      if (text(result).length !== t.bigFileBytes) throw new Error(`read ${text(result).length} of ${t.bigFileBytes} characters`);
      return { bytes, calls: 1, check: `${text(result).length} chars` };
    },
  });
  return [
    byName('official'),
    byName('wiremcp'),
    {
      id: 'grep',
      label: 'content search (`needle`, 200 matching lines in 20,000 files)',
      server: 'wiremcp',
      run: async (client, t) => {
        const { result, bytes } = await one(client, 'search_file_contents', { path: t.root, pattern: 'needle', maxResults: 1000 });
        const matches = (result.structuredContent?.matches as unknown[]).length;
        if (matches !== 200) throw new Error(`found ${matches} matching lines`);
        return { bytes, calls: 1, check: `${matches} lines` };
      },
    },
    tree('official', 'directory_tree, whole tree (20,401 entries)'),
    tree('wiremcp-big', 'directory_tree, whole tree (20,401 entries)', { maxEntries: 50_000 }),
    tree('wiremcp', 'directory_tree with default limits (first 1,000 entries, says it is cut)'),
    readWhole('official'),
    readWhole('wiremcp-big'),
    {
      id: 'read-18mb-pages',
      label: 'read the 18 MB file in 1 MiB pages (offset continuation)',
      server: 'wiremcp',
      run: async (client, t) => {
        let offset: number | undefined = 0;
        let bytes = 0;
        let calls = 0;
        let chars = 0;
        while (offset !== undefined) {
          const page = await one(client, 'read_text_file', { path: t.bigFile, offset });
          bytes += page.bytes;
          calls++;
          chars += text(page.result).length;
          offset = page.result.structuredContent?.nextOffset as number | undefined;
        }
        if (chars !== t.bigFileBytes) throw new Error(`read ${chars} of ${t.bigFileBytes} characters`);
        return { bytes, calls, check: `${chars} chars` };
      },
    },
    {
      id: 'read-first-page',
      label: 'read the 18 MB file with default limits (first 1 MiB page)',
      server: 'wiremcp',
      run: async (client, t) => {
        const { result, bytes } = await one(client, 'read_text_file', { path: t.bigFile });
        return { bytes, calls: 1, check: `next offset ${String(result.structuredContent?.nextOffset)}` };
      },
    },
  ];
}

function peakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function session(
  spec: ServerSpec,
  tree: BenchTree,
  ops: Operation[],
  warm: boolean,
): Promise<{ ms: Record<string, number>; meta: Record<string, { bytes: number; calls: number; check: string }>; peakMb?: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: spec.args(tree),
    stderr: 'ignore',
    maxFrameBytes: 256 * 1024 * 1024,
  });
  const client = new McpClient({ name: 'bench-filesystem', version: '1.0.0' }, { era: 'legacy', requestTimeoutMs: 300_000 });
  await client.connect(transport);
  const ms: Record<string, number> = {};
  const meta: Record<string, { bytes: number; calls: number; check: string }> = {};
  try {
    for (const op of ops) {
      // One discarded run warms the page cache and the JIT; then the timed one.
      if (warm) await op.run(client, tree);
      const start = performance.now();
      meta[op.id] = await op.run(client, tree);
      ms[op.id] = performance.now() - start;
    }
    return { ms, meta, peakMb: peakRssMb(transport.pid) };
  } finally {
    await client.close();
  }
}

function commandLine(argv: readonly string[]): string {
  const args = ['filesystem', ...argv].join(' ');
  return process.env.npm_lifecycle_event === 'bench' ? `npm run bench -- ${args}` : `node apps/bench/dist/cli.js ${args}`;
}

/** Runs the filesystem benchmark; resolves with the exit code. */
export async function runFilesystemBench(argv: readonly string[]): Promise<number> {
  const flags = parseBenchFlags(argv, { maxRepetitions: 50 });
  const unused = [flags.help && '--help', flags.quick && '--quick', flags.only.length > 0 && '--only', !flags.pin && '--no-pin'];
  if (unused.some(Boolean))
    throw new Error(`the filesystem bench takes --repetitions <n> and --out <dir> only, got ${unused.filter(Boolean).join(', ')}`);
  const repetitions = flags.repetitions ?? 5;
  const outDir = resolve(flags.out ?? join(PACKAGE_ROOT, 'results'));
  const official = officialBin();
  const specs = servers(official.bin);
  const ops = operations();
  const started = performance.now();
  process.stderr.write(`bench filesystem: generating the tree…\n`);
  const tree = makeBenchTree();
  const samples: Record<string, Array<Record<string, number>>> = {};
  let meta: Record<string, Record<string, { bytes: number; calls: number; check: string }>> = {};
  const peaks: Record<string, number[]> = {};
  try {
    for (let rep = 0; rep < repetitions; rep++) {
      for (const spec of rotate(specs, rep)) {
        const mine = ops.filter((op) => op.server === spec.id);
        const t0 = performance.now();
        const outcome = await session(spec, tree, mine, true);
        (samples[spec.id] ??= []).push(outcome.ms);
        meta = { ...meta, [spec.id]: outcome.meta };
        if (outcome.peakMb !== undefined) (peaks[spec.id] ??= []).push(outcome.peakMb);
        process.stderr.write(`  [${rep + 1}/${repetitions}] ${spec.id.padEnd(12)} ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
      }
    }
  } finally {
    tree.remove();
  }
  const cases: FsCase[] = ops.map((op) => {
    const values = (samples[op.server] ?? []).map((rep) => rep[op.id]!).filter((v) => v !== undefined);
    const officialOp = ops.find(
      (other) => other.server === 'official' && other.id.replace('-default', '') === op.id.replace('-default', ''),
    );
    const ratios =
      op.server === 'official' || !officialOp
        ? []
        : (samples[op.server] ?? []).map((rep, i) => rep[op.id]! / samples.official![i]![officialOp.id]!).filter((r) => Number.isFinite(r));
    return {
      id: op.id,
      label: op.label,
      server: specs.find((s) => s.id === op.server)!.label,
      medianMs: median(values),
      minMs: Math.min(...values),
      maxMs: Math.max(...values),
      ratio: ratios.length > 0 ? median(ratios) : undefined,
      responseBytes: meta[op.server]?.[op.id]?.bytes ?? 0,
      calls: meta[op.server]?.[op.id]?.calls ?? 0,
      check: meta[op.server]?.[op.id]?.check ?? '',
    };
  });
  let pinned = '';
  try {
    pinned = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout.
  }
  const report: FsReport = {
    date: new Date().toISOString(),
    command: commandLine(argv),
    node: process.versions.node,
    os: `${type()} ${release()}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    loadAverage: loadavg(),
    gitCommit: pinned,
    officialVersion: official.version,
    repetitions,
    wallTimeSec: (performance.now() - started) / 1000,
    tree: { files: tree.files, directories: tree.directories, bigFileBytes: tree.bigFileBytes },
    cases,
    peakRssMb: Object.fromEntries(Object.entries(peaks).map(([id, values]) => [specs.find((s) => s.id === id)!.label, median(values)])),
  };
  mkdirSync(outDir, { recursive: true });
  const markdown = renderFilesystemReport(report);
  writeFileSync(join(outDir, 'filesystem.md'), markdown);
  writeFileSync(join(outDir, 'filesystem.json'), `${JSON.stringify(report, null, 1)}\n`);
  process.stdout.write(`${markdown}\n`);
  return 0;
}
