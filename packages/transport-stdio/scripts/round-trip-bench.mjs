// Round trips per second of tools/call over stdio with 64 requests in flight, against a child server.
// Not a test: a local measurement. Build first (turbo run build), then from the repository root:
//   node packages/transport-stdio/scripts/round-trip-bench.mjs [seconds=5] [inFlight=64]
// Rows: wiremcp client → wiremcp server; raw client → wiremcp server; raw client → raw server (the
// hand-written JSON.parse → switch → JSON.stringify baseline).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Peer } from '@wiremcp/jsonrpc';
import { StdioClientTransport } from '@wiremcp/transport-stdio';

const seconds = Number(process.argv[2] ?? 5);
const inFlight = Number(process.argv[3] ?? 64);
const server = fileURLToPath(new URL('./bench-server.mjs', import.meta.url));
const params = { name: 'echo', arguments: { text: 'comió' } };

async function wiremcpClient(serverKind) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [server], env: { BENCH_SERVER: serverKind } });
  const peer = new Peer({ requestTimeoutMs: 0 });
  await peer.connect(transport);
  let done = 0;
  let running = true;
  const worker = async () => {
    while (running) {
      await peer.request('tools/call', params);
      done++;
    }
  };
  const warm = Date.now() + 500;
  const workers = Array.from({ length: inFlight }, worker);
  while (Date.now() < warm) await new Promise((r) => setTimeout(r, 50));
  const start = done;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const rate = ((done - start) * 1000) / (performance.now() - t0);
  running = false;
  await Promise.all(workers);
  await peer.close();
  return rate;
}

async function rawClient(serverKind) {
  const child = spawn(process.execPath, [server], {
    env: { ...process.env, BENCH_SERVER: serverKind },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let nextId = 0;
  let done = 0;
  let rest = '';
  const send = (count) => {
    let out = '';
    for (let i = 0; i < count; i++) out += JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }) + '\n';
    child.stdin.write(out);
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    let answered = 0;
    for (const line of lines) {
      if (line === '') continue;
      JSON.parse(line);
      answered++;
    }
    done += answered;
    if (answered > 0) send(answered);
  });
  send(inFlight);
  await new Promise((r) => setTimeout(r, 500));
  const start = done;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const rate = ((done - start) * 1000) / (performance.now() - t0);
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  return rate;
}

const rows = [
  ['wiremcp client → wiremcp server', () => wiremcpClient('wiremcp')],
  ['raw client → wiremcp server', () => rawClient('wiremcp')],
  ['raw client → transport-only server', () => rawClient('transport')],
  ['raw client → raw server (baseline)', () => rawClient('raw')],
  ['wiremcp client → raw server', () => wiremcpClient('raw')],
];
console.log(`node ${process.version}, ${seconds}s per row, ${inFlight} requests in flight`);
for (const [name, run] of rows) {
  const rate = await run();
  console.log(`${name.padEnd(38)} ${Math.round(rate).toLocaleString('en-US').padStart(9)} round trips/s`);
}
