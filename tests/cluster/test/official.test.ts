// The official MCP conformance suite's server leg against the balancer URL: Redis, three everything-server
// processes and nginx round-robin (no affinity), both scored revisions and `--suite all`, run the way
// `npm run conformance:official` runs it (Node 22 and @modelcontextprotocol/conformance from npm through npx), and
// judged against the single-process run's expected failures (apps/conformance/official-expected-failures.yaml):
// every scenario, scored or not, that one process passes must pass across three.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'apps/conformance/dist/official/cli.js');
const EXPECTED = join(ROOT, 'apps/conformance/official-expected-failures.yaml');

let cluster: Cluster;
let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'cluster-official-'));
  cluster = await startCluster({ instances: 3, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(out, { recursive: true, force: true });
}, 30_000);

/** Runs the official runner's server leg against `url`; its exit code and output. */
function runServerLeg(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const args = [CLI, '--url', url, '--server-only', '--expected-failures', EXPECTED, '--out', out];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      process.stderr.write(`[official] ${chunk.toString('utf8')}`);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

test('the official server leg passes at the balancer URL on both revisions, as on one process', async () => {
  // localhost, not 127.0.0.1: the suite's DNS-rebinding check sends the URL's own Host (the instances allow it).
  const url = cluster.url.replace('127.0.0.1', 'localhost');
  const { code, output } = await runServerLeg(url);
  expect(output).toMatch(/server --requirements 2025-11-25/);
  expect(output).toMatch(/server --requirements 2026-07-28/);
  type Run = { url?: string; revision?: string; scenarios: Array<{ name: string; status: string }> };
  const { runs } = JSON.parse(readFileSync(join(out, 'official-results.json'), 'utf8')) as { runs: Run[] };
  const ours = runs.filter((run) => run.url === url);
  expect(ours.map((run) => run.revision ?? 'all').sort()).toEqual(['2025-11-25', '2026-07-28', 'all']);
  for (const run of ours) expect(run.scenarios.length).toBeGreaterThan(0);
  // The verdict: nothing failed that one process passes (the expected failures are the single-process run's).
  expect(code, output.slice(-4000)).toBe(0);
}, 900_000);
