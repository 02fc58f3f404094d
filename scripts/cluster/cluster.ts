/**
 * A local cluster of MCP server processes behind a real load balancer: a `redis-server` for the shared state, N
 * server processes (`--http` on 127.0.0.1, `--redis`) and `nginx` in front, round-robin, SSE buffering off, no
 * session affinity. Used by `npm run cluster`, the cluster tests and the cluster benchmark. Everything runs from a
 * temporary directory and listens on 127.0.0.1 only; `stop()` ends every process it started. `redis-server` and
 * `nginx` come from Debian's packages: installed with `apt-get` when missing (as root), and said so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** Server processes (default 3). */
  readonly instances?: number;
  /** The balancer's port (default: a free one). */
  readonly port?: number;
  /** Keep state in Redis (default `true`); `false` runs each process with its in-memory state (sticky-less: broken). */
  readonly redis?: boolean;
  /** The server's bin (default the everything server's `dist/bin.js`; build first). */
  readonly serverBin?: string;
  /** Extra arguments for every server process. */
  readonly serverArgs?: readonly string[];
  /** Put nginx in front (default `true`); `false` with one instance serves it directly. */
  readonly balancer?: boolean;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

/** One server process of the cluster. */
export interface ClusterInstance {
  readonly port: number;
  /** Its own address, `127.0.0.1:<port>` (what the balancer reports in `X-Upstream`). */
  readonly address: string;
  readonly running: boolean;
  /** Kills it (SIGKILL: no graceful end) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** The running cluster. */
export interface Cluster {
  /** The MCP endpoint behind the balancer. */
  readonly url: string;
  readonly instances: readonly ClusterInstance[];
  /** The Redis URL, when state is in Redis. */
  readonly redisUrl: string | undefined;
  /** Stops Redis (SIGKILL) and resolves once it exited; `startRedis` brings it back on the same port. */
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  /** Stops everything it started (also safe after a partial start). */
  stop(): Promise<void>;
}

/** Installs `redis-server`, `nginx` and `chromium` from Debian's packages when missing (as asked); throws when it cannot. */
export function ensureInstalled(
  needs: { redis?: boolean; nginx?: boolean; chromium?: boolean },
  log: (line: string) => void = () => {},
): void {
  const missing = (): string[] => [
    ...(needs.redis && !onPath('redis-server') ? ['redis-server'] : []),
    ...(needs.nginx && !onPath('nginx') ? ['nginx'] : []),
    ...(needs.chromium && !onPath('chromium') ? ['chromium'] : []),
  ];
  if (missing().length === 0) return;
  // Test files run in parallel processes: one installs, the others wait for it (apt and dpkg take one at a time).
  const lock = join(tmpdir(), 'wiremcp-apt-get.lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`another install holds ${lock}; remove it if no install is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    const packages = missing();
    if (packages.length === 0) return;
    log(`installing ${packages.join(' and ')} with apt-get (missing)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const wait = ['-o', 'DPkg::Lock::Timeout=300'];
    for (const args of [
      [...wait, 'update'],
      [...wait, 'install', '-y', '--no-install-recommends', ...packages],
    ]) {
      const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
      if (result.status !== 0) {
        const why = result.error?.message ?? result.stderr.trim().slice(-400);
        throw new Error(`apt-get ${args.slice(2).join(' ')} failed (${why}); install ${packages.join(', ')} and run again`);
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function onPath(name: string): boolean {
  return ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'].some((dir) => existsSync(join(dir, name)));
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Spawns a process and resolves once a line of its output matches `ready` (rejects when it exits first). */
function spawnReady(command: string, args: readonly string[], ready: RegExp, timeoutMs = 15_000): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${command} did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 20_000) output = output.slice(-10_000);
      if (ready.test(output)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        // Keep draining, so a chatty process never blocks on a full pipe.
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code, signal) =>
      fail(new Error(`${command} exited (${signal ?? code}) before it was ready:\n${output.slice(-2000)}`)),
    );
  });
}

/** Kills a child process and waits for it to exit. */
function killAndWait(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** The nginx configuration: round-robin over the instances, SSE unbuffered, no affinity. */
export function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${join(dir, name)};`).join('\n');
  return `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
${temp}
  upstream mcp {
    # Round-robin (the default): no ip_hash, no sticky cookie, no hash on Mcp-Session-Id.
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # SSE: every event goes through as it comes, and long streams stay open.
      proxy_buffering off;
      proxy_cache off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      # A refused connection (an instance that died) is retried on the next instance, POSTs included.
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts the cluster; see {@link ClusterOptions}. On a failure, stops what it started and rethrows. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const useRedis = options.redis ?? true;
  const useBalancer = options.balancer ?? true;
  ensureInstalled({ redis: useRedis, nginx: useBalancer }, log);
  const dir = mkdtempSync(join(tmpdir(), 'wiremcp-cluster-'));
  const count = Math.max(1, options.instances ?? 3);
  const bin = options.serverBin ?? join(root, 'servers', 'everything', 'dist', 'bin.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (npm run build)`);
  const frontPort = options.port ?? (await freePort());
  const redisPort = await freePort();
  const redisUrl = useRedis ? `redis://127.0.0.1:${redisPort}` : undefined;
  let redis: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  const instances: (ClusterInstance & { stopNow(): Promise<void> })[] = [];

  const startRedis = async (): Promise<void> => {
    const args = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    redis = await spawnReady('redis-server', args, /Ready to accept connections/);
  };
  const makeInstance = async (): Promise<ClusterInstance & { stopNow(): Promise<void> }> => {
    const port = await freePort();
    let child: ChildProcess | undefined;
    const args = [bin, '--http', `127.0.0.1:${port}`, '--allow-host', `127.0.0.1:${frontPort}`, '--allow-host', `localhost:${frontPort}`];
    args.push('--allow-host', `127.0.0.1:${port}`);
    if (redisUrl !== undefined) args.push('--redis', redisUrl);
    args.push(...(options.serverArgs ?? []));
    const instance = {
      port,
      address: `127.0.0.1:${port}`,
      get running() {
        return child !== undefined && child.exitCode === null && child.signalCode === null;
      },
      kill: () => killAndWait(child),
      stopNow: () => killAndWait(child, 'SIGTERM'),
      start: async () => {
        child = await spawnReady(process.execPath, args, /serving MCP on/);
      },
    };
    await instance.start();
    return instance;
  };

  const stop = async (): Promise<void> => {
    await killAndWait(nginx, 'SIGQUIT');
    await Promise.all(instances.map((instance) => instance.stopNow()));
    await killAndWait(redis);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (useRedis) {
      await startRedis();
      log(`redis-server on ${redisUrl}`);
    }
    for (let i = 0; i < count; i += 1) instances.push(await makeInstance());
    log(`${count} server process(es) on ${instances.map((instance) => instance.address).join(', ')}`);
    let url = `http://127.0.0.1:${instances[0]!.port}/mcp`;
    if (useBalancer) {
      const conf = join(dir, 'nginx.conf');
      writeFileSync(
        conf,
        nginxConfig(
          dir,
          frontPort,
          instances.map((instance) => instance.port),
        ),
      );
      // nginx says nothing when it starts; `-T` first checks the configuration, then it runs in the foreground.
      const check = spawnSync('nginx', ['-t', '-c', conf, '-p', dir], { encoding: 'utf8' });
      if (check.status !== 0) throw new Error(`nginx refused its configuration: ${check.stderr}`);
      nginx = spawn('nginx', ['-c', conf, '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
      await waitForPort(frontPort);
      url = `http://127.0.0.1:${frontPort}/mcp`;
      log(`nginx round-robin on ${url}`);
    }
    return {
      url,
      instances,
      redisUrl,
      stopRedis: () => killAndWait(redis),
      startRedis,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves once something accepts connections on the port (bounded: 10 s). */
async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
