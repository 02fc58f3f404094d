/**
 * What the host's process tests share: the built reference servers, configurations made from objects, waiting for a
 * host event (never for time), and the leak check after `close()`: no process of the host's left, no handle, timer or
 * listener more than before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseConfigText } from '../config/load-config.js';
import type { HostConfig } from '../config/types.js';
import type { McpHost } from './mcp-host.js';
import type { HostEvents, ServerState } from './types.js';

const bin = (name: string): string => fileURLToPath(new URL(`../../../../servers/${name}/bin/wiremcp-${name}.js`, import.meta.url));

/** The built reference servers' bins. */
export const BINS = {
  grammar: bin('grammar'),
  everything: bin('everything'),
  filesystem: bin('filesystem'),
  resourcesDemo: bin('resources-demo'),
};

/** A stdio entry running `node <args>`. */
export const node = (...args: string[]): Record<string, unknown> => ({ type: 'stdio', command: process.execPath, args });

/** A server that exits with code 3 as soon as it starts. */
export const EXITS_AT_START = node('-e', 'process.exit(3)');

/** A server that starts and never answers anything (stdin read and ignored). */
export const HANGS = node('-e', 'process.stdin.resume(); setInterval(() => {}, 1000)');

/** A configuration from `mcpServers` entries. */
export function configOf(servers: Record<string, unknown>, env: Record<string, string> = {}): Promise<HostConfig> {
  return parseConfigText(JSON.stringify({ mcpServers: servers }), { env: { ...process.env, ...env } });
}

/** Resolves with the first `event` payload that satisfies `predicate` (or at once when `now()` already does). */
export function next<K extends keyof HostEvents>(
  host: McpHost,
  event: K,
  predicate: (payload: HostEvents[K]) => boolean = () => true,
): Promise<HostEvents[K]> {
  return new Promise((resolve) => {
    const off = host.on(event, (payload) => {
      if (!predicate(payload)) return;
      off();
      resolve(payload);
    });
  });
}

/** Resolves once `server` is in `state` (now or later). */
export async function stateOf(host: McpHost, server: string, state: ServerState): Promise<void> {
  const pending = next(host, 'state', (e) => e.server === server && e.state === state);
  if (host.status().find((row) => row.name === server)?.state === state) return;
  await pending;
}

/** What could leak, counted: handles by kind (child processes, pipes, sockets, timers) and the process's listeners. */
export function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  for (const event of ['exit', 'SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'])
    counts[`listeners:${event}`] = process.listenerCount(event);
  return counts;
}

/**
 * Asserts that nothing is left that was not there `before`, and that no process of `pids` still runs. Waits two turns
 * of the event loop first: a handle closed during the last turn is still listed until its close callback has run.
 */
export async function expectNoLeak(before: Record<string, number>, pids: readonly number[]): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  const after = resources();
  const grown = Object.entries(after).filter(([kind, count]) => count > (before[kind] ?? 0));
  expect(grown).toEqual([]);
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
}

/** The pids of every running stdio server of the host. */
export function pidsOf(host: McpHost): number[] {
  return host.status().flatMap((row) => (row.pid === undefined ? [] : [row.pid]));
}

/** A reference server over HTTP on a free loopback port; resolves with its URL once it serves. */
export function startHttpServer(
  binPath: string,
  port = 0,
  extra: readonly string[] = [],
): Promise<{ child: ChildProcess; url: string; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, '--http', `127.0.0.1:${port}`, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before serving: ${stderr}`)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /serving MCP on (http:\/\/127\.0\.0\.1:(\d+)\/\S*)/.exec(stderr);
      if (match) resolve({ child, url: match[1]!, port: Number(match[2]) });
    });
  });
}

/** Kills a process and resolves once it has exited. */
export function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
