/**
 * Probing a third-party server (`--command`, `--url`): which revisions it accepts and which capabilities it
 * declares in each, so that capability-gated scenarios are skipped with a reason instead of failing.
 *
 * Legacy revisions: `initialize` with that revision; answering another version means "not supported" (the spec
 * lets the server counter-propose). 2026-07-28: `server/discover` with the required `_meta`; a result listing the
 * revision means supported, anything else (error, silence) means the server is not modern.
 */
import { MetaKey, type ProtocolVersion } from '@wiremcp/protocol';
import { eraOf } from '../scenario/selectors.js';
import { openSession } from '../session/open-session.js';
import type { RawSession } from '../session/session.js';
import { capabilityPaths, type Target, type TargetTransport } from '../targets/target.js';
import type { ProbeResult } from './plan.js';
import { CLIENT_INFO } from './steps.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The answer to request `id`: its response, or an error the server could not tie to it (id null, as HTTP
 * servers without a session answer), or an HTTP response without a JSON-RPC body. Undefined on exit or timeout.
 */
async function answer(session: RawSession, id: number, timeoutMs: number): Promise<JsonObject | undefined> {
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  for (;;) {
    for (; seen < session.log.events.length; seen += 1) {
      const event = session.log.events[seen]!;
      if (event.kind === 'message' && isObject(event.message) && !('method' in event.message)) {
        const answerId = event.message['id'];
        if (answerId === id || ((answerId === null || answerId === undefined) && 'error' in event.message)) return event.message;
      }
      if (event.kind === 'http') return { error: { code: `HTTP ${event.status}`, message: event.body.slice(0, 100) } };
      if (event.kind === 'exit') return undefined;
    }
    if (!(await session.log.waitBeyond(seen, deadline))) return undefined;
  }
}

function describe(message: JsonObject | undefined): string {
  if (message === undefined) return 'no answer';
  if (isObject(message['error'])) return `error ${String(message['error']['code'])} ${JSON.stringify(message['error']['message'])}`;
  return JSON.stringify(message['result']).slice(0, 120);
}

/** Probes one transport and revision of a target. Never throws: a failure is an "unsupported" result. */
export async function probeRevision(
  transport: TargetTransport,
  revision: ProtocolVersion,
  timeoutMs = 10_000,
): Promise<{ unsupported?: string; capabilities: Set<string> }> {
  let session: RawSession | undefined;
  try {
    session = await openSession(transport);
    if (eraOf(revision) === 'legacy') {
      await session.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO },
      });
      const reply = await answer(session, 1, timeoutMs);
      const result = reply && isObject(reply['result']) ? reply['result'] : undefined;
      if (result === undefined) return { unsupported: `initialize with ${revision} failed: ${describe(reply)}`, capabilities: new Set() };
      if (result['protocolVersion'] !== revision) {
        return {
          unsupported: `the server does not speak ${revision} (initialize answered ${JSON.stringify(result['protocolVersion'])})`,
          capabilities: new Set(),
        };
      }
      return { capabilities: capabilityPaths(result['capabilities']) };
    }
    const meta = { [MetaKey.protocolVersion]: revision, [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: CLIENT_INFO };
    await session.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    const reply = await answer(session, 1, timeoutMs);
    const result = reply && isObject(reply['result']) ? reply['result'] : undefined;
    const versions = result?.['supportedVersions'];
    if (!Array.isArray(versions) || !versions.includes(revision)) {
      return { unsupported: `the server does not speak ${revision} (server/discover: ${describe(reply)})`, capabilities: new Set() };
    }
    return { capabilities: capabilityPaths(result!['capabilities']) };
  } catch (error) {
    return { unsupported: `probe failed: ${(error as Error).message}`, capabilities: new Set() };
  } finally {
    await session?.close().catch(() => {});
  }
}

/** Probes every transport × revision of an external target, `jobs` at a time. */
export async function probeTarget(target: Target, revisions: readonly ProtocolVersion[], jobs: number): Promise<Map<string, ProbeResult>> {
  const work = target.transports.flatMap((transport) => revisions.map((revision) => ({ transport, revision })));
  const found = new Map<string, { unsupported?: string; capabilities: Set<string> }>();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, work.length)) }, async () => {
      while (next < work.length) {
        const item = work[next++]!;
        found.set(`${item.transport.id}|${item.revision}`, await probeRevision(item.transport, item.revision));
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
