// Micro-benchmark of @wiremcp/framing decoders: MB/s and frames/s, median of several repetitions after a
// warm-up. Not a test. Run from the repository root (the package resolves to its built dist, so build
// it first: `cd packages/framing && ../../node_modules/.bin/tsc -p tsconfig.build.json`):
//   node --import tsx apps/bench/src/micro/framing-bench.ts
import { pathToFileURL } from 'node:url';
import { createDecoder, encodeFrame, type Framing } from '@wiremcp/framing';

/** One benchmark result: decode throughput of one scenario. */
export interface FramingBenchResult {
  name: string;
  mbPerSec: number;
  framesPerSec: number;
}

const CHUNK_BYTES = 64 * 1024;
const MB = 1024 * 1024;

interface Scenario {
  name: string;
  framing: Framing;
  chunks: Uint8Array[];
  bytes: number;
  frames: number;
}

/** A stream of `count` frames of `size` bytes each (a JSON string padded to size), cut into 64 KiB chunks. */
function scenario(name: string, framing: Framing, size: number, count: number): Scenario {
  const payload = new TextEncoder().encode(`"${'x'.repeat(size - 2)}"`);
  const frame = encodeFrame(payload, framing);
  const stream = new Uint8Array(frame.length * count);
  for (let i = 0; i < count; i++) stream.set(frame, i * frame.length);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < stream.length; at += CHUNK_BYTES) chunks.push(stream.slice(at, at + CHUNK_BYTES));
  return { name, framing, chunks, bytes: stream.length, frames: count };
}

/** Decodes the whole stream once; returns elapsed milliseconds. Fails loudly if a frame goes missing. */
function runOnce(s: Scenario): number {
  let frames = 0;
  let checksum = 0;
  const decoder = createDecoder({
    framing: s.framing,
    onFrame: (payload) => {
      frames++;
      checksum += payload.length;
    },
  });
  const start = performance.now();
  for (const chunk of s.chunks) decoder.push(chunk);
  decoder.end();
  const elapsed = performance.now() - start;
  if (frames !== s.frames || checksum === 0) throw new Error(`${s.name}: decoded ${frames} of ${s.frames} frames`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs every scenario (3 warm-up runs, 9 measured) and returns the median throughput of each. */
export async function runFramingBench(): Promise<FramingBenchResult[]> {
  const scenarios = [
    scenario('ndjson 100 B frames, 64 KiB chunks', 'ndjson', 100, 200_000),
    scenario('content-length 100 B frames, 64 KiB chunks', 'content-length', 100, 200_000),
    scenario('ndjson 1 MiB frames, 64 KiB chunks', 'ndjson', MB, 24),
    scenario('content-length 1 MiB frames, 64 KiB chunks', 'content-length', MB, 24),
  ];
  const results: FramingBenchResult[] = [];
  for (const s of scenarios) {
    for (let i = 0; i < 3; i++) runOnce(s);
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      times.push(runOnce(s));
      // Let the event loop breathe between repetitions, as a real stream would.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const seconds = median(times) / 1000;
    results.push({ name: s.name, mbPerSec: s.bytes / MB / seconds, framesPerSec: s.frames / seconds });
  }
  return results;
}

function printTable(results: FramingBenchResult[]): void {
  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`${'scenario'.padEnd(width)}  ${'MB/s'.padStart(9)}  ${'frames/s'.padStart(12)}`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(width)}  ${r.mbPerSec.toFixed(0).padStart(9)}  ${Math.round(r.framesPerSec).toLocaleString('en-US').padStart(12)}`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await runFramingBench());
}
