/**
 * `connectRedisState`: the connections to one Redis and the three shared parts a `createHttpHandler` needs to
 * serve legacy sessions from any of several processes — `eventStore`, `sessionStore` and `bus` — the `taskStore`
 * an `McpServer` keeps its tasks in, plus the shared
 * secrets every process of a deployment must agree on (the `requestState` signing key). Commands fail at once while
 * Redis is unreachable (no offline queue), and after the command timeout while it is reachable but does not answer
 * (hung, paused, overloaded), so requests get a clear 503 instead of hanging; the connections reconnect on their own
 * and serving recovers.
 */
import type { SessionBus, EventStore, SessionStore } from '@wiremcp/transport-http';
import { Redis } from 'ioredis';
import { boundCommands } from './command-timeout.js';
import { RedisEventStore } from './event-store.js';
import { RedisSessionBus } from './session-bus.js';
import { RedisSessionStore } from './session-store.js';
import { RedisTaskStore } from './task-store.js';

/** Options of {@link connectRedisState}. */
export interface RedisStateOptions {
  /** The Redis URL (`redis://host:port/db`, `rediss://` for TLS). Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Prefix of every key and of the bus channel (default `wiremcp:`): one per deployment sharing a Redis. */
  readonly prefix?: string;
  /** Events kept per SSE stream (default 512). */
  readonly maxEventsPerStream?: number;
  /** Lifetime of an SSE stream's events after its last one (default 5 minutes). */
  readonly eventTtlMs?: number;
  /** Lifetime of an idle session's state (default 30 minutes; match the handler's `sessionIdleTimeoutMs`). */
  readonly sessionTtlMs?: number;
  /** Most tasks kept at once (default 1000), as `MemoryTaskStore`'s `maxTasks`. */
  readonly maxTasks?: number;
  /** Lifetime of a running task's lease without renewal (default 10 000 ms), as `RedisTaskStore`'s `leaseMs`. */
  readonly taskLeaseMs?: number;
  /** Time to wait for the first connection, in ms (default 5 000); then `connectRedisState` rejects. */
  readonly connectTimeoutMs?: number;
  /**
   * Time every Redis command may take, in ms (default 2 000, or `WIREMCP_REDIS_COMMAND_TIMEOUT_MS`): a command
   * unanswered by then fails, so a hung Redis costs a request this long, then a 503 — never the whole outage.
   */
  readonly commandTimeoutMs?: number;
  /** Receives connection problems (one report per outage, one when it is over). Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

/** The shared state; spread `handlerOptions` into `createHttpHandler`'s options. */
export interface RedisState {
  readonly eventStore: RedisEventStore;
  readonly sessionStore: RedisSessionStore;
  readonly bus: RedisSessionBus;
  /** The task store, for `new McpServer(info, { tasks: { store: state.taskStore } })`. */
  readonly taskStore: RedisTaskStore;
  /** `{ eventStore, sessionStore, bus }`, for `createHttpHandler(server, { ...state.handlerOptions })`. */
  readonly handlerOptions: { readonly eventStore: EventStore; readonly sessionStore: SessionStore; readonly bus: SessionBus };
  /** The command connection (for diagnostics such as `INFO memory`). */
  readonly client: Redis;
  /**
   * Resolves when Redis answers, for a readiness probe (`/readyz`): a `PING` on a small connection of its own, so it
   * is never queued behind what the command connection has in flight (a burst of session and event-store commands,
   * writes Redis holds back during a failover's `CLIENT PAUSE WRITE`) nor behind the bus's messages. Rejects at once
   * while the command or the subscriber connection is not ready (requests needing Redis fail meanwhile), and after the
   * command timeout when Redis does not answer (hung, paused, gone).
   */
  ping(): Promise<void>;
  /**
   * A secret shared by every process of the deployment, created once (random, 32 bytes, base64url) and kept in
   * Redis under `name`: e.g. `await state.sharedSecret('request-state')` as the server's `requestState.key`. When
   * Redis restarts without its data, each process that knew it writes it back on reconnecting (`SET NX`), so a
   * process started afterwards still gets the same value. (A process started while none of those is connected would
   * create a new one: persist Redis, or configure the key yourself, for a guarantee.)
   */
  sharedSecret(name: string): Promise<string>;
  /** Closes every connection (waiting for replies still due, while Redis answers). */
  close(): Promise<void>;
}

function watch(client: Redis, role: string, report: (error: unknown) => void): void {
  let down = false;
  client.on('error', (error: Error) => {
    // ioredis reports every failed reconnection attempt: one report per outage is enough.
    if (down) return;
    down = true;
    report(new Error(`Redis ${role} connection lost (${error.message}); reconnecting, requests needing it get 503 meanwhile`));
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    report(new Error(`Redis ${role} connection restored`));
  });
}

function connected(client: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (client.status === 'ready') return resolve();
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}

/** Default of {@link RedisStateOptions.commandTimeoutMs}. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

/**
 * A number from the environment, when set: `WIREMCP_TASK_LEASE_MS` (the task lease of a server started with
 * `--redis`, e.g. a short one in tests that kill a process mid-task) or `WIREMCP_REDIS_COMMAND_TIMEOUT_MS`.
 */
function fromEnvironment(name: string): number | undefined {
  const text = process.env[name];
  return text === undefined || text === '' ? undefined : Number(text);
}

function commandTimeout(options: RedisStateOptions): number {
  const value = options.commandTimeoutMs ?? fromEnvironment('WIREMCP_REDIS_COMMAND_TIMEOUT_MS') ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`commandTimeoutMs must be an integer ≥ 1, not ${String(value)}`);
  return value;
}

/** Connects to Redis and builds the shared state; rejects when Redis cannot be reached in time. */
export async function connectRedisState(options: RedisStateOptions = {}): Promise<RedisState> {
  const prefix = options.prefix ?? 'wiremcp:';
  const report = options.onError ?? ((error: unknown) => console.error('[@wiremcp/redis]', error instanceof Error ? error.message : error));
  const timeoutMs = commandTimeout(options);
  // Not ioredis' `commandTimeout`: a process starved of CPU would time out commands Redis answered (command-timeout.ts).
  const settings = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    retryStrategy: (times: number) => Math.min(50 * times, 1000),
  };
  const url = options.url ?? 'redis://127.0.0.1:6379';
  const client = new Redis(url, settings);
  // The subscriber queues its own SUBSCRIBE again after a reconnection (ioredis' autoResubscribe).
  const subscriber = new Redis(url, { ...settings, enableOfflineQueue: true });
  // Readiness PINGs only: on the command connection a PING waits for every command sent before it, on the subscriber
  // for every bus message before it (see `ping`).
  const prober = new Redis(url, settings);
  const connections = [client, subscriber, prober];
  for (const connection of connections) boundCommands(connection, timeoutMs);
  watch(client, 'command', report);
  watch(subscriber, 'subscriber', report);
  // An outage is reported by the other two already; without a listener ioredis would print each error itself.
  prober.on('error', () => {});
  try {
    const timeout = options.connectTimeoutMs ?? 5000;
    await Promise.all(connections.map((connection) => connected(connection, timeout)));
  } catch (error) {
    for (const connection of connections) connection.disconnect();
    throw error;
  }
  const eventStore = new RedisEventStore(client, { prefix, maxEventsPerStream: options.maxEventsPerStream, ttlMs: options.eventTtlMs });
  const sessionStore = new RedisSessionStore(client, { prefix, ttlMs: options.sessionTtlMs, channel: `${prefix}bus` });
  const bus = new RedisSessionBus(client, subscriber, { prefix });
  await bus.start();
  const taskStore = new RedisTaskStore(client, subscriber, {
    prefix,
    maxTasks: options.maxTasks,
    leaseMs: options.taskLeaseMs ?? fromEnvironment('WIREMCP_TASK_LEASE_MS'),
  });
  await taskStore.start();
  // The secrets this process agreed on. A Redis restarted without its data has lost them: each process puts its
  // own back (SET NX) as soon as it reconnects, so one started later reads the same value, not a fresh one.
  const secrets = new Map<string, string>();
  let lost = false;
  client.on('close', () => (lost = true));
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    for (const [name, value] of secrets) {
      client.set(`${prefix}secret:${name}`, value, 'NX').catch(() => {
        lost = true;
      });
    }
  });
  return {
    eventStore,
    sessionStore,
    bus,
    taskStore,
    handlerOptions: { eventStore, sessionStore, bus },
    client,
    async sharedSecret(name: string): Promise<string> {
      const known = secrets.get(name);
      if (known !== undefined) return known;
      const key = `${prefix}secret:${name}`;
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      const fresh = Buffer.from(bytes).toString('base64url');
      await client.set(key, fresh, 'NX');
      const value = await client.get(key);
      if (value === null) throw new Error(`the shared secret ${name} vanished from Redis`);
      secrets.set(name, value);
      return value;
    },
    async ping(): Promise<void> {
      for (const [role, connection] of [
        ['command', client],
        ['subscriber', subscriber],
      ] as const) {
        if (connection.status !== 'ready') throw new Error(`the Redis ${role} connection is ${connection.status}`);
      }
      await prober.ping();
    },
    async close(): Promise<void> {
      // QUIT waits for the replies still due; a connection that cannot send it (Redis gone) is dropped, or it would
      // keep reconnecting.
      await Promise.allSettled(connections.map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}
