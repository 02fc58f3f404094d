/**
 * Probing a third-party server (`--command`, `--url`): which revisions it accepts and which capabilities it
 * declares in each, so that capability-gated scenarios are "not applicable" instead of failing.
 *
 * Legacy revisions: `initialize` with that revision; answering another version means "not supported" (the spec
 * lets the server counter-propose). 2026-07-28: `server/discover` with the required `_meta`; a result listing the
 * revision means supported, anything else (error, silence) means the server is not modern.
 *
 * Probes run after the warm-up (`hosts/warm-up.ts`), whose answer counts as the probe of its own revision.
 */
import type { ProtocolVersion } from '@wiremcp/protocol';
import { eraOf } from '../scenario/selectors.js';
import { awaitAnswer, openingRequest, type Answer } from '../session/harness.js';
import { openRawSession } from '../session/open-session.js';
import type { RawSession } from '../session/session.js';
import { capabilityPaths, carries, type Target, type TargetTransport } from '../targets/target.js';
import type { ProbeResult } from './plan.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What one probe found. */
export interface ProbeFinding {
  /** Undefined when the server speaks the revision; otherwise why its cells do not apply. */
  readonly unsupported?: string;
  readonly capabilities: Set<string>;
}

function describe(answer: Answer): string {
  switch (answer.kind) {
    case 'answer': {
      const error = answer.message['error'];
      if (isObject(error)) return `error ${String(error['code'])} ${JSON.stringify(error['message'])}`;
      return (JSON.stringify(answer.message['result']) ?? '').slice(0, 120);
    }
    case 'http':
      return `HTTP ${answer.status}${answer.body ? ` ${answer.body.slice(0, 100)}` : ''}`;
    case 'exit':
      return `the server exited (code ${answer.code})`;
    case 'broken':
      return answer.message;
    case 'timeout':
      return 'no answer';
  }
}

/** Reads what the answer to the opening request of `revision` says about it. */
export function findingOf(revision: string, answer: Answer): ProbeFinding {
  const result = answer.kind === 'answer' && isObject(answer.message['result']) ? answer.message['result'] : undefined;
  if (eraOf(revision) === 'legacy') {
    if (result === undefined) return { unsupported: `initialize with ${revision} failed: ${describe(answer)}`, capabilities: new Set() };
    if (result['protocolVersion'] !== revision) {
      return {
        unsupported: `the server does not speak ${revision} (initialize answered ${JSON.stringify(result['protocolVersion'])})`,
        capabilities: new Set(),
      };
    }
    return { capabilities: capabilityPaths(result['capabilities']) };
  }
  const versions = result?.['supportedVersions'];
  if (!Array.isArray(versions) || !versions.includes(revision)) {
    return { unsupported: `the server does not speak ${revision} (server/discover: ${describe(answer)})`, capabilities: new Set() };
  }
  return { capabilities: capabilityPaths(result!['capabilities']) };
}

/** Probes one transport and revision of a target on a process (or HTTP session) of its own. Never throws. */
export async function probeRevision(
  transport: TargetTransport,
  revision: ProtocolVersion,
  timeoutMs: number,
  url?: string,
): Promise<ProbeFinding> {
  let session: RawSession | undefined;
  try {
    session = openRawSession(transport, url);
    const opened = session;
    const from = opened.log.events.length;
    await opened.send(openingRequest(1, revision));
    const answer = await awaitAnswer(opened.log, from, 1, Date.now() + timeoutMs, {
      idlessErrors: transport.kind === 'http',
      brokenWhen: () => opened.startError(),
    });
    return findingOf(revision, answer);
  } catch (error) {
    return { unsupported: `probe failed: ${(error as Error).message}`, capabilities: new Set() };
  } finally {
    await session?.close();
  }
}

/** The warm-up's answer, which stands for the probe of its transport and revision. */
export interface ProbeSeed {
  readonly transport: string;
  readonly revision: string;
  readonly answer: Answer;
}

/**
 * Probes every transport × revision of an external target, `jobs` at a time (the target is warm: see the
 * warm-up). `urls` maps HTTP transports to their endpoint.
 */
export async function probeTarget(
  target: Target,
  revisions: readonly ProtocolVersion[],
  options: { readonly jobs: number; readonly timeoutMs: number; readonly seed?: ProbeSeed },
): Promise<Map<string, ProbeResult>> {
  const found = new Map<string, ProbeFinding>();
  const { seed } = options;
  if (seed) found.set(`${seed.transport}|${seed.revision}`, findingOf(seed.revision, seed.answer));
  const work = target.transports
    .flatMap((transport) => revisions.filter((revision) => carries(transport, revision)).map((revision) => ({ transport, revision })))
    .filter((item) => !found.has(`${item.transport.id}|${item.revision}`));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.jobs, work.length)) }, async () => {
      while (next < work.length) {
        const item = work[next++]!;
        found.set(`${item.transport.id}|${item.revision}`, await probeRevision(item.transport, item.revision, options.timeoutMs));
      }
    }),
  );
  const eras = new Set<string>();
  for (const [key, result] of found) if (result.unsupported === undefined) eras.add(eraOf(key.split('|')[1]!));
  const features = new Set<string>([...eras].map((era) => `era-${era}`));
  if (eras.size === 2) features.add('dual-era');
  const out = new Map<string, ProbeResult>();
  for (const [key, result] of found) out.set(key, { ...result, features });
  return out;
}
