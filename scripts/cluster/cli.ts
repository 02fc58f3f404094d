/**
 * `npm run cluster`: the everything server on three processes (or `--instances N`) behind nginx round-robin, with
 * state in Redis (`--memory` for per-process memory, which breaks sessions that hop), on 127.0.0.1 (`--port P` for
 * the balancer, default 8080). Ctrl-C stops everything.
 */
import { parseArgs } from 'node:util';
import { startCluster, type Cluster } from './cluster.js';

const { values } = parseArgs({
  options: { instances: { type: 'string', default: '3' }, port: { type: 'string', default: '8080' }, memory: { type: 'boolean' } },
});
const say = (line: string): void => void process.stderr.write(`[cluster] ${line}\n`);
let cluster: Cluster | undefined;
let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  if (cluster === undefined) {
    say(`${signal}: stopping once what is starting has started`);
    return;
  }
  say(`${signal}: stopping nginx, the servers and Redis`);
  void cluster.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      say(`stop failed: ${String(error)}`);
      process.exit(1);
    },
  );
};
// Installed before anything starts, so a Ctrl-C during the start still stops every process started.
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
cluster = await startCluster({
  instances: Number(values.instances),
  port: Number(values.port),
  redis: values.memory !== true,
  log: say,
});
if (stopping) {
  stopping = false;
  shutdown('stop requested');
} else say(`ready: MCP on ${cluster.url} — Ctrl-C stops it`);
