// Two HTTP bench servers side by side, for a change too small for the bench's per-row repetitions to resolve: both
// servers run at once (on the CPU `--pin-server` names, the clients on this process's CPU), and short blocks of
// 32-concurrent `tools/call echo` alternate between them (A B, B A, …). Each pair of blocks gives each server's CPU per
// call from /proc, counted over both blocks so that work a server defers to its idle time is included (before
// 2026-11-29 it was counted over the server's own block only, which read 0.97–1.04× where this reads 1.07× with
// sessions); drift in the machine's load hits both servers alike; the result is the median of the per-pair ratios.
//
//   node apps/bench/scripts/http-block-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--blocks 20]
//        [--calls 6400] [--pin-server 0] [--env-b NAME=VALUE] [--node-args "--cpu-prof --cpu-prof-dir=/tmp/p"]
//        [--server-args "rate-limit"] [--client-work 40]
//
// A server is a bench server script (e.g. apps/bench/dist/http/servers/wiremcp-http.js of a checkout): it prints
// `READY <port>` and serves /mcp. Linux only (CPU time from /proc, pinning with taskset). With one script given twice
// and `--env-b`, it compares a switch inside one build; `--node-args` reach both servers (for profiles), `--server-args`
// both scripts (the overhead bench's apps/bench/dist/ops/servers/ops-http.js takes its variant: off, tracing, metrics,
// rate-limit). `--client-work <µs>` makes each client spend that long on each answer (a busy loop) before its next
// request, as the bench's clients do: a lean client lets the slower server take several requests per wake-up. What it
// reads depends on the placement: with the clients and both servers on one CPU (`taskset -c 1 … --pin-server 1`, the
// bench's), wiremcp ÷ hand-written read 1.32× with sessions at 40 µs per answer against 1.03× without; with the
// servers on a CPU of their own, about 1.08× either way (apps/bench/README.md).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startServer } from './start-server.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    era: { type: 'string', default: '2026' },
    blocks: { type: 'string', default: '20' },
    calls: { type: 'string', default: '6400' },
    'pin-server': { type: 'string' },
    'env-b': { type: 'string' },
    'node-args': { type: 'string', default: '' },
    'server-args': { type: 'string', default: '' },
    'client-work': { type: 'string', default: '0' },
  },
});
if (positionals.length !== 2 || !['2025', '2026'].includes(values.era)) {
  console.error(
    'usage: http-block-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--blocks N] [--calls N] [--pin-server CPU] [--client-work µs]',
  );
  process.exit(2);
}
const blocks = Number(values.blocks);
const perWorker = Math.ceil(Number(values.calls) / 32);
const nodeArgs = values['node-args'].split(' ').filter((a) => a !== '');
const serverArgs = values['server-args'].split(' ').filter((a) => a !== '');
const legacy = values.era === '2025';
const clientWorkUs = Number(values['client-work']);
if (!Number.isFinite(clientWorkUs) || clientWorkUs < 0) {
  console.error('--client-work takes microseconds (a number ≥ 0)');
  process.exit(2);
}
const clientWorkNs = BigInt(Math.round(clientWorkUs * 1000));

/** The client's own work on an answer: a busy loop of `--client-work` µs. */
function clientWork() {
  if (clientWorkNs === 0n) return;
  const end = process.hrtime.bigint() + clientWorkNs;
  while (process.hrtime.bigint() < end);
}

async function start(script, env) {
  const started = await startServer(script, { pin: values['pin-server'], nodeArgs, args: serverArgs, env });
  return { ...started, agent: new http.Agent({ keepAlive: true, maxSockets: 32 }) };
}

function cpuMs(server) {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function post(server, body, headers) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/mcp',
        method: 'POST',
        agent: server.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (answer += chunk));
        res.on('end', () => (res.statusCode >= 300 ? reject(new Error(`${res.statusCode} ${answer.slice(0, 200)}`)) : resolve(res)));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'block-ab', version: '1' },
};

async function worker(server) {
  let headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  if (legacy) {
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'block-ab', version: '1' } };
    const res = await post(server, { jsonrpc: '2.0', id: 0, method: 'initialize', params: init }, {});
    headers = { 'mcp-session-id': res.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
    await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  }
  for (let i = 0; i < perWorker; i++) {
    const params = { name: 'echo', arguments: { text: `hello ${i % 50}` } };
    if (!legacy) params._meta = MODERN_META;
    await post(server, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params }, headers);
    clientWork();
  }
}

async function block(server) {
  await Promise.all(Array.from({ length: 32 }, () => worker(server)));
}

const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
const envB = values['env-b'] ? Object.fromEntries([values['env-b'].split('=')]) : {};
const servers = [await start(positionals[0], {}), await start(positionals[1], envB)];
try {
  for (const server of servers) for (let i = 0; i < 2; i++) await block(server); // warm-up
  const a = [];
  const b = [];
  for (let k = 0; k < blocks; k++) {
    // Each server's CPU over the whole pair of blocks, its own and the other's: work a server defers until it is idle
    // (a scavenge task, concurrent marking, compiling) runs while the other server's block runs, and counted over its
    // own block alone it was missed (the server that defers more then looked cheaper than it is).
    const before = servers.map(cpuMs);
    for (const i of k % 2 === 0 ? [0, 1] : [1, 0]) await block(servers[i]);
    const [cpuA, cpuB] = servers.map((server, i) => ((cpuMs(server) - before[i]) * 1000) / (32 * perWorker));
    a.push(cpuA);
    b.push(cpuB);
  }
  const ratios = a.map((x, i) => x / b[i]).sort((x, y) => x - y);
  console.log(
    JSON.stringify({
      era: values.era,
      clientWorkUs,
      blocks,
      callsPerBlock: 32 * perWorker,
      serverCpuUsPerCallA: Number(median(a).toFixed(1)),
      serverCpuUsPerCallB: Number(median(b).toFixed(1)),
      ratioAB: Number(median(ratios).toFixed(3)),
      ratios: ratios.map((r) => Number(r.toFixed(2))),
    }),
  );
} finally {
  for (const server of servers) {
    server.child.removeAllListeners('exit');
    server.child.kill('SIGTERM');
    server.agent.destroy();
  }
}
