/**
 * Warm-up: every target is started once, alone, before any cell or probe runs in parallel. A cold `npx -y …`
 * installs the package on its first start; several cold starts at once would race on the same npx cache (and
 * stopping one mid-install leaves it half-written). The warm-up waits up to the start-up timeout for the first
 * answer — to `initialize`, or `server/discover` for a 2026-07-28-only server — and stops the process gently.
 *
 * A target that cannot be started or reached is an error naming the cause: the spawn error (ENOENT…), the exit
 * code and the end of its stderr, the refused connection, or the timeout.
 */
import { MetaKey } from '@wiremcp/protocol';
import { awaitAnswer, openingRequest, type Answer } from '../session/harness.js';
import { openRawSession } from '../session/open-session.js';
import type { RawSession } from '../session/session.js';
import { NOT_JSON_ON_STDOUT, type StdioSession } from '../session/stdio-session.js';
import type { TargetTransport } from '../targets/target.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name and version a server reports (legacy `serverInfo`, or 2026-07-28 `_meta` serverInfo). */
export interface ServerIdentity {
  readonly name: string;
  readonly version?: string;
}

/** What starting a target once found. */
export type WarmUpResult =
  | {
      readonly ok: true;
      /** From the start to the first answer. */
      readonly ms: number;
      /** The request it answered (`initialize 2025-11-25`, `server/discover 2026-07-28`). */
      readonly asked: string;
      readonly revision: string;
      readonly answer: Answer;
      readonly serverInfo?: ServerIdentity;
    }
  | { readonly ok: false; readonly error: string };

/** The identity a result carries, if any. */
export function identityOf(result: unknown): ServerIdentity | undefined {
  if (!isObject(result)) return undefined;
  const meta = isObject(result['_meta']) ? result['_meta'] : {};
  const info = isObject(result['serverInfo'])
    ? result['serverInfo']
    : isObject(meta[MetaKey.serverInfo])
      ? meta[MetaKey.serverInfo]
      : undefined;
  if (!isObject(info) || typeof info['name'] !== 'string') return undefined;
  return { name: info['name'], ...(typeof info['version'] === 'string' ? { version: info['version'] } : {}) };
}

function tail(text: string, max = 600): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

function stderrNote(session: RawSession): string {
  const text = tail(session.stderrTail());
  return text === '' ? ' (nothing on stderr)' : `; stderr: ${text}`;
}

function lastViolation(session: RawSession, from = 0): string | undefined {
  for (let index = session.log.events.length - 1; index >= from; index -= 1) {
    const event = session.log.events[index]!;
    if (event.kind === 'violation') return event.message;
  }
  return undefined;
}

/** What a stdio server did wrong on stdout, for the warm-up's error (a line that is not JSON is quoted). */
function stdoutProblem(violation: string): string {
  const rule = 'stdout carries only protocol messages; logs go to stderr';
  if (violation.startsWith(NOT_JSON_ON_STDOUT)) {
    return `wrote a line to stdout that is not JSON: ${violation.slice(NOT_JSON_ON_STDOUT.length)} (${rule})`;
  }
  return `broke its stdout framing: ${violation} (${rule})`;
}

/**
 * Starts the target over `transport` (or reaches `url`), asks the opening request of `revision` and waits up to
 * `startupTimeoutMs` for any answer. Never throws.
 */
export async function warmUp(transport: TargetTransport, revision: string, startupTimeoutMs: number, url?: string): Promise<WarmUpResult> {
  const started = Date.now();
  const request = openingRequest(1, revision);
  const asked = `${String(request['method'])} ${revision}`;
  const where = transport.kind === 'stdio' ? `\`${transport.command.join(' ')}\`` : (url ?? transport.url);
  let session: RawSession | undefined;
  try {
    session = openRawSession(transport, url);
    const opened = session;
    const from = opened.log.events.length;
    await opened.send(request);
    const answer = await awaitAnswer(opened.log, from, 1, started + startupTimeoutMs, {
      idlessErrors: transport.kind === 'http',
      // A spawn error ends the wait at once; over HTTP, so does a refused connection; over stdio, anything on stdout
      // that is not a protocol message (a banner, a log line): the server would break every cell, so it fails now.
      brokenWhen: () => opened.startError() ?? lastViolation(opened, from),
    });
    switch (answer.kind) {
      case 'answer':
      case 'http': {
        const result = answer.kind === 'answer' ? answer.message['result'] : undefined;
        const serverInfo = identityOf(result);
        return { ok: true, ms: Date.now() - started, asked, revision, answer, ...(serverInfo ? { serverInfo } : {}) };
      }
      case 'exit':
        return {
          ok: false,
          error: `${where} exited (code ${answer.code}${answer.signal ? `, signal ${answer.signal}` : ''}) before answering ${asked}${stderrNote(opened)}`,
        };
      case 'broken':
        if (transport.kind === 'stdio' && opened.startError() === undefined)
          return { ok: false, error: `${where} ${stdoutProblem(answer.message)}` };
        return { ok: false, error: `${where} could not be ${transport.kind === 'stdio' ? 'started' : 'reached'}: ${answer.message}` };
      default: {
        const stdout = lastViolation(opened);
        return {
          ok: false,
          error:
            `${where} did not answer ${asked} within ${(startupTimeoutMs / 1000).toFixed(0)} s (--startup-timeout)` +
            `${stdout ? `; stdout: ${stdout}` : ''}${stderrNote(opened)}`,
        };
      }
    }
  } catch (error) {
    return { ok: false, error: `${where} could not be started: ${(error as Error).message}` };
  } finally {
    // Gently: a process that answered has nothing left to install; one that timed out is stopped all the same.
    if (session && transport.kind === 'stdio') await (session as StdioSession).close(5000);
    else await session?.close();
  }
}
