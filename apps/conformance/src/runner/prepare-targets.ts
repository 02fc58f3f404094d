/**
 * Before any cell: each target is started once, alone (the warm-up), then third-party targets are probed in
 * parallel; one that reports a registry server's serverInfo gets that server suggested (never applied). A target
 * that cannot be started or reached is recorded with its cause; its cells are reported as errors.
 */
import type { ProtocolVersion } from '@wiremcp/protocol';
import type { Host } from '../hosts/host.js';
import { HttpHost } from '../hosts/http-host.js';
import { warmUp, type ServerIdentity } from '../hosts/warm-up.js';
import { eraOf } from '../scenario/selectors.js';
import { recogniseByIdentity } from '../targets/choose-targets.js';
import type { RegistryServer } from '../targets/registry.js';
import { carries, type Target, type TargetTransport } from '../targets/target.js';
import type { ProbeResult, ProbeResults, TargetErrors } from './plan.js';
import { probeTarget } from './probe.js';

/** What the warm-up of a target found, for the report. */
export interface WarmUpReport {
  readonly transport: string;
  /** The request the target answered (`initialize 2025-11-25`). */
  readonly asked?: string;
  /** From the start to the first answer. */
  readonly ms?: number;
  readonly serverInfo?: ServerIdentity;
  /** Why it could not be started or reached. */
  readonly error?: string;
}

/** The prepared targets. */
export interface PreparedTargets {
  /** The targets, external ones with what they resemble. */
  readonly targets: Target[];
  readonly probes: ProbeResults;
  readonly errors: TargetErrors;
  readonly warmUps: ReadonlyMap<string, WarmUpReport>;
}

/** Options of {@link prepareTargets}. */
export interface PrepareOptions {
  readonly revisions: readonly ProtocolVersion[];
  readonly jobs: number;
  readonly startupTimeoutMs: number;
  readonly timeoutScale: number;
  /** One line of progress (stderr). */
  readonly log: (line: string) => void;
  /** Once aborted (Ctrl-C), no further target is started. */
  readonly signal?: AbortSignal;
}

/** The revision the warm-up asks for: the newest legacy one the run covers (most servers are legacy), else 2026-07-28. */
export function warmUpRevision(target: Target, revisions: readonly string[]): string {
  const covered = revisions.filter((revision) => target.revisions.includes(revision));
  const candidates = covered.length > 0 ? covered : revisions;
  const legacy = candidates.filter((revision) => eraOf(revision) === 'legacy');
  return legacy[legacy.length - 1] ?? candidates[candidates.length - 1]!;
}

/**
 * Where the warm-up goes: the first transport that carries a revision of the run, with the revision of
 * {@link warmUpRevision} among those. A `--url` server lists its stateless wire first, so that, as a client
 * does, it is asked `server/discover` before `initialize`.
 */
export function warmUpWire(target: Target, revisions: readonly string[]): { transport: TargetTransport; revision: string } | undefined {
  for (const transport of target.transports) {
    const carried = revisions.filter((revision) => target.revisions.includes(revision) && carries(transport, revision));
    if (carried.length > 0) return { transport, revision: warmUpRevision(target, carried) };
  }
  const first = target.transports[0];
  return first === undefined ? undefined : { transport: first, revision: warmUpRevision(target, revisions) };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function urlOf(transport: TargetTransport, host: Host | undefined): Promise<string | undefined> {
  if (transport.kind !== 'http') return undefined;
  return host instanceof HttpHost ? host.url() : transport.url;
}

/** Warms up, probes and recognises the targets, one target at a time. */
export async function prepareTargets(
  targets: readonly Target[],
  registry: readonly RegistryServer[],
  hosts: ReadonlyMap<string, Host>,
  options: PrepareOptions,
): Promise<PreparedTargets> {
  const out: Target[] = [];
  const probes = new Map<string, ReadonlyMap<string, ProbeResult>>();
  const errors = new Map<string, Map<string, string>>();
  const warmUps = new Map<string, WarmUpReport>();
  for (const original of targets) {
    let target = original;
    const wire = warmUpWire(target, options.revisions);
    if (target.unavailable !== undefined || wire === undefined || options.signal?.aborted) {
      out.push(target);
      continue;
    }
    const { transport: first, revision } = wire;
    options.log(`starting ${target.id} once before the run (${first.id})…`);
    let url: string | undefined;
    let result: Awaited<ReturnType<typeof warmUp>>;
    try {
      url = await urlOf(first, hosts.get(`${target.id}|${first.id}`));
      result = await warmUp(first, revision, options.startupTimeoutMs, url);
    } catch (error) {
      result = { ok: false, error: `${first.id}: the server could not be started: ${(error as Error).message}` };
    }
    if (!result.ok) {
      options.log(`  ${target.id}: ${result.error}`);
      errors.set(target.id, new Map([['*', result.error]]));
      warmUps.set(target.id, { transport: first.id, error: result.error });
      out.push(target);
      continue;
    }
    const who = result.serverInfo ? ` (${result.serverInfo.name}${result.serverInfo.version ? ` ${result.serverInfo.version}` : ''})` : '';
    options.log(`  ${target.id} answered ${result.asked} after ${seconds(result.ms)}${who}`);
    warmUps.set(target.id, {
      transport: first.id,
      asked: result.asked,
      ms: result.ms,
      ...(result.serverInfo ? { serverInfo: result.serverInfo } : {}),
    });
    // The other HTTP transports of a registry server: their shared server processes start now, in parallel.
    const others = target.transports.filter((transport) => transport !== first && transport.kind === 'http');
    await Promise.all(
      others.map(async (transport) => {
        try {
          await urlOf(transport, hosts.get(`${target.id}|${transport.id}`));
        } catch (error) {
          const message = `${transport.id}: the server could not be started: ${(error as Error).message}`;
          options.log(`  ${target.id}: ${message}`);
          const map = errors.get(target.id) ?? new Map<string, string>();
          map.set(transport.id, message);
          errors.set(target.id, map);
        }
      }),
    );
    if (target.origin === 'external') {
      const known = target.knownAs === undefined ? recogniseByIdentity(registry, result.serverInfo) : undefined;
      if (known) {
        target = { ...target, resembles: known.id };
        options.log(
          `  ${target.id} reports itself as ${result.serverInfo!.name}, as the registry's ${known.id} does: ` +
            `add --name ${known.id} to apply its baseline entries and scenarios`,
        );
      }
      const timeoutMs = Math.max(10_000 * options.timeoutScale, 2 * result.ms);
      const count = target.transports.reduce((sum, transport) => sum + options.revisions.filter((r) => carries(transport, r)).length, 0);
      options.log(`probing ${target.id}: ${count} transport × revision combination${count === 1 ? '' : 's'}…`);
      probes.set(
        target.id,
        await probeTarget(target, options.revisions, {
          jobs: options.jobs,
          timeoutMs,
          seed: { transport: first.id, revision, answer: result.answer },
        }),
      );
    }
    out.push(target);
  }
  return { targets: out, probes, errors, warmUps };
}
