/**
 * The cluster's `redis-server`: started on a fixed port in the cluster's directory, with or without persistence,
 * and the faults done to it — SIGKILL, SIGSTOP and SIGCONT, a restart that keeps its data (persistence on) or
 * starts empty (persistence off, or the data thrown away). With persistence it keeps an append-only file synced on
 * every write (`appendfsync always`): what a write was acknowledged for survives a crash of the Redis process.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { killAndWait, spawnReady } from './spawn.js';

/** Options of {@link RedisProcess}. */
export interface RedisProcessOptions {
  readonly port: number;
  /** Where it keeps its files. */
  readonly dir: string;
  /** Keep an append-only file, synced on every write, and load it on start (default true). */
  readonly persistence?: boolean;
}

/** The arguments of `redis-server` for these options. */
export function redisArgs(options: RedisProcessOptions): string[] {
  const base = ['--port', String(options.port), '--bind', '127.0.0.1', '--dir', options.dir, '--save', ''];
  return options.persistence === false ? [...base, '--appendonly', 'no'] : [...base, '--appendonly', 'yes', '--appendfsync', 'always'];
}

/** One `redis-server` and what can be done to it. */
export class RedisProcess {
  readonly #options: RedisProcessOptions;
  #child: ChildProcess | undefined;
  #paused = false;

  constructor(options: RedisProcessOptions) {
    this.#options = options;
  }

  get persistence(): boolean {
    return this.#options.persistence !== false;
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Starts it (loading its append-only file when it keeps one); `fresh` throws that file away first. */
  async start(options: { fresh?: boolean } = {}): Promise<void> {
    if (this.running) throw new Error('redis-server is already running');
    if (options.fresh === true) rmSync(join(this.#options.dir, 'appendonlydir'), { recursive: true, force: true });
    this.#paused = false;
    this.#child = await spawnReady('redis-server', redisArgs(this.#options), /Ready to accept connections/);
  }

  /** SIGKILL: no graceful end, nothing flushed beyond what was synced; resolves once it exited. */
  async kill(): Promise<void> {
    if (this.#paused) this.#child?.kill('SIGCONT');
    this.#paused = false;
    await killAndWait(this.#child);
  }

  /** SIGSTOP: it keeps its connections but answers nothing until {@link resume}. */
  pause(): void {
    if (!this.running || this.#paused) return;
    this.#paused = true;
    this.#child!.kill('SIGSTOP');
  }

  /** SIGCONT after {@link pause}. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#child?.kill('SIGCONT');
  }

  /** Stops it for good (resumed first when paused, so the kill is not held up). */
  stop(): Promise<void> {
    return this.kill();
  }
}
