/**
 * A local cluster of MCP server processes behind a real load balancer: a `redis-server` for the shared state, N
 * server processes (`--http` on 127.0.0.1, `--redis`) and `nginx` in front, round-robin, SSE buffering off, no
 * session affinity. Used by `npm run cluster`, the cluster tests and the cluster benchmark. Everything runs from a
 * temporary directory and listens on 127.0.0.1 only; `stop()` ends every process it started. `redis-server` and
 * `nginx` come from Debian's packages: installed with `apt-get` when missing (as root), and said so. The faults the
 * fault tests inject are methods here: SIGKILL, SIGSTOP and SIGCONT of Redis and of each instance, Redis restarted
 * with its data or empty, Redis slowed down by a delaying proxy, and every exit nobody asked for recorded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/conformance/src/session/free-port.js';
import { waitForPort } from '../../apps/conformance/src/session/wait-for-port.js';
import { ensureDebianPackages } from '../debian-packages.js';
import { startDelayProxy, type DelayProxy } from './delay-proxy.js';
import { RedisProcess } from './redis-process.js';
import { killAndWait, outputOf, spawnReady } from './spawn.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** Server processes (default 3). */
  readonly instances?: number;
  /** The balancer's port (default: a free one). */
  readonly port?: number;
  /** Keep state in Redis (default `true`); `false` runs each process with its in-memory state (sticky-less: broken). */
  readonly redis?: boolean;
  /**
   * The server's bin (default `WIREMCP_CLUSTER_SERVER_BIN`, else the everything server's `dist/bin.js`; build first):
   * another build of it runs the same tests and benchmarks against that version.
   */
  readonly serverBin?: string;
  /** Extra arguments for every server process. */
  readonly serverArgs?: readonly string[];
  /** Put nginx in front (default `true`); `false` with one instance serves it directly. */
  readonly balancer?: boolean;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
  /**
   * Redis keeps an append-only file synced on every write, so a restart keeps every acknowledged write (default
   * `true`, what the survival guarantees of `@wiremcp/redis` need); `false` runs it without persistence.
   */
  readonly persistence?: boolean;
  /** The instances reach Redis through a delaying TCP proxy (delay 0 until {@link Cluster.setRedisDelay}). */
  readonly redisProxy?: boolean;
  /** Extra environment variables of every server process. */
  readonly env?: Readonly<Record<string, string>>;
}

/** An exit of a server process that nobody asked for (a crash). */
export interface UnexpectedExit {
  readonly address: string;
  readonly code: number | null;
  readonly signal: string | null;
  /** The last lines it printed. */
  readonly output: string;
}

/** One server process of the cluster. */
export interface ClusterInstance {
  readonly port: number;
  /** Its own address, `127.0.0.1:<port>` (what the balancer reports in `X-Upstream`). */
  readonly address: string;
  readonly running: boolean;
  /** Its exit code once it exited (`null` while running, or when a signal ended it). */
  readonly exitCode: number | null;
  /** Kills it (SIGKILL: no graceful end) and waits for it to exit. */
  kill(): Promise<void>;
  /** Stops it gracefully (SIGTERM) and waits for it to exit. */
  terminate(): Promise<void>;
  /** SIGSTOP: it holds its connections and answers nothing until {@link resume}. */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** The last lines it printed. */
  readonly output: string;
}

/** The running cluster. */
export interface Cluster {
  /** The MCP endpoint behind the balancer. */
  readonly url: string;
  readonly instances: readonly ClusterInstance[];
  /** The Redis URL, when state is in Redis (the instances use the proxy's when there is one). */
  readonly redisUrl: string | undefined;
  /** The Redis process, when state is in Redis: kill, pause, resume, start (with its data, or `fresh`). */
  readonly redis: RedisProcess | undefined;
  /** Stops Redis (SIGKILL) and resolves once it exited; `startRedis` brings it back on the same port. */
  stopRedis(): Promise<void>;
  startRedis(options?: { fresh?: boolean }): Promise<void>;
  /** Delays each chunk between the instances and Redis by `ms` each way (needs `redisProxy`). */
  setRedisDelay(ms: number): void;
  /** The exits of server processes nobody asked for, so far. */
  unexpectedExits(): readonly UnexpectedExit[];
  /** Stops everything it started (also safe after a partial start). */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, never one this process handed out before (the shared one, re-exported for the tests). */
export { freePort };

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
    # Idle connections are closed here before the instance closes them (Node's keep-alive timeout, 5 s): otherwise a
    # request sent on a connection the instance is closing at that moment is reset, and with max_fails=1 the instance
    # is skipped for fail_timeout — on a busy machine all three at once, and the request is answered 502.
    keepalive_timeout 3s;
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
      proxy_read_timeout 1h;
      # A connection error is retried on the next instance, POSTs included: an instance that died refuses the
      # connection, and a draining one closes its idle keep-alive connections, which nginx may have just picked for a
      # request. Without non_idempotent nginx answers such a POST 502. A draining instance never closes a connection
      # with a request in flight before its deadline, so the retried request had not been served; only a request cut
      # at the deadline (the instance exits 1 then) could be served twice. The request body is buffered (the default)
      # so that nginx still holds it for the retry.
      proxy_next_upstream error timeout non_idempotent;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

type ManagedInstance = ClusterInstance & { stopNow(): Promise<void> };

/** Starts the cluster; see {@link ClusterOptions}. On a failure, stops what it started and rethrows. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const useRedis = options.redis ?? true;
  const useBalancer = options.balancer ?? true;
  ensureDebianPackages([...(useRedis ? ['redis-server'] : []), ...(useBalancer ? ['nginx'] : [])], log);
  const dir = mkdtempSync(join(tmpdir(), 'wiremcp-cluster-'));
  const count = Math.max(1, options.instances ?? 3);
  const bin = options.serverBin ?? process.env.WIREMCP_CLUSTER_SERVER_BIN ?? join(root, 'servers', 'everything', 'dist', 'bin.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (npm run build)`);
  const frontPort = options.port ?? (await freePort());
  const redisPort = await freePort();
  const redis = useRedis ? new RedisProcess({ port: redisPort, dir, persistence: options.persistence }) : undefined;
  let proxy: DelayProxy | undefined;
  let nginx: ChildProcess | undefined;
  const instances: ManagedInstance[] = [];
  const exits: UnexpectedExit[] = [];
  const env = { ...process.env, ...options.env };

  const makeInstance = async (redisUrl: string | undefined): Promise<ManagedInstance> => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    let expected = false;
    const args = [bin, '--http', address, '--allow-host', `127.0.0.1:${frontPort}`, '--allow-host', `localhost:${frontPort}`];
    args.push('--allow-host', address);
    if (redisUrl !== undefined) args.push('--redis', redisUrl);
    args.push(...(options.serverArgs ?? []));
    const stopping = (signal: NodeJS.Signals) => () => {
      expected = true;
      return killAndWait(child, signal);
    };
    const instance: ManagedInstance = {
      port,
      address,
      get running() {
        return child !== undefined && child.exitCode === null && child.signalCode === null;
      },
      get exitCode() {
        return child?.exitCode ?? null;
      },
      get output() {
        return outputOf(child);
      },
      kill: stopping('SIGKILL'),
      terminate: stopping('SIGTERM'),
      stopNow: stopping('SIGTERM'),
      pause: () => void child?.kill('SIGSTOP'),
      resume: () => void child?.kill('SIGCONT'),
      start: async () => {
        expected = false;
        const started = await spawnReady(process.execPath, args, /serving MCP on/, { env });
        child = started;
        started.once('exit', (code, signal) => {
          if (!expected) exits.push({ address, code, signal, output: outputOf(started) });
        });
      },
    };
    await instance.start();
    return instance;
  };

  const stop = async (): Promise<void> => {
    await killAndWait(nginx, 'SIGQUIT');
    await Promise.all(instances.map((instance) => instance.stopNow()));
    await proxy?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    let redisUrl: string | undefined;
    if (redis !== undefined) {
      await redis.start();
      redisUrl = `redis://127.0.0.1:${redisPort}`;
      log(`redis-server on ${redisUrl} (${redis.persistence ? 'append-only file, fsync always' : 'no persistence'})`);
      if (options.redisProxy === true) {
        proxy = await startDelayProxy(redisPort);
        redisUrl = `redis://127.0.0.1:${proxy.port}`;
        log(`the instances reach Redis through a delaying proxy on ${redisUrl}`);
      }
    }
    for (let i = 0; i < count; i += 1) instances.push(await makeInstance(redisUrl));
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
      // Ready only when the listener is this nginx's (another program on the port would otherwise pass for it).
      await waitForPort(frontPort, 10_000, nginx).catch((error: unknown) => {
        throw new Error(`nginx did not start: ${(error as Error).message}`);
      });
      url = `http://127.0.0.1:${frontPort}/mcp`;
      log(`nginx round-robin on ${url}`);
    }
    return {
      url,
      instances,
      redisUrl: redis === undefined ? undefined : `redis://127.0.0.1:${redisPort}`,
      redis,
      stopRedis: async () => redis?.kill(),
      startRedis: async (how) => redis?.start(how),
      setRedisDelay: (ms) => {
        if (proxy === undefined) throw new Error('setRedisDelay needs a cluster started with redisProxy: true');
        proxy.delayMs = ms;
      },
      unexpectedExits: () => [...exits],
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
