/**
 * stdio: a server process is one connection, and at most one legacy session. Fresh cells get a process each; the
 * cells of a lane (same server, transport, revision and — legacy — client capabilities, see `isolation.ts`) run
 * one after another on one process, which is replaced when a cell errs, when the process stops answering, when
 * something of an earlier cell arrives late, or when a cell would send a raw request id the process has already seen.
 * A process whose cell failed or warned is kept when it still answers and nothing more of that cell arrives: a
 * third-party server that fails many cells (dropped frames, say) then costs a few processes instead of one a cell.
 */
import type { Cell, CellResult } from '../runner/cell-types.js';
import { isolationOf, rawIds } from '../runner/isolation.js';
import { CellSession } from '../session/cell-session.js';
import { eraOf } from '../scenario/selectors.js';
import { awaitAnswer, harnessId, isHarnessId, livenessRequest } from '../session/harness.js';
import { StdioSession } from '../session/stdio-session.js';
import type { TargetTransport } from '../targets/target.js';
import type { CellRunner, Host, SharedLegacySession } from './host.js';

type StdioTransport = Extract<TargetTransport, { kind: 'stdio' }>;

/** A process serving a lane. */
interface LaneProcess {
  readonly session: StdioSession;
  served: number;
  lastScenario: string | undefined;
  /** A `tail` cell ran: the server holds something it did not hold before; only an `end` cell may follow. */
  spoiled: boolean;
  readonly rawIds: Set<string>;
  readonly legacy: SharedLegacySession;
  /** Where the log stood when the last cell ended. */
  endedAt: number;
  /** The last cell did not pass (its status): the check before the next cell is the strict one. */
  suspect: CellResult['status'] | undefined;
}

function legacySession(): SharedLegacySession {
  let state: SharedLegacySession['state'] = 'none';
  let result: unknown;
  let key: string | undefined;
  let openedBy: string | undefined;
  return {
    get state() {
      return state;
    },
    get initializeResult() {
      return result;
    },
    get key() {
      return key;
    },
    get openedBy() {
      return openedBy;
    },
    initializeSent() {
      state = 'unusable';
    },
    opened(value: unknown, revision: string, capabilities: unknown, scenario: string) {
      state = 'open';
      result = value;
      key = `${revision}|${JSON.stringify(capabilities)}`;
      openedBy = scenario;
    },
  };
}

/** Why the legacy session a lane's process holds does not suit the next cell, if it does not. */
function sessionMismatch(session: SharedLegacySession, cell: Cell): string | undefined {
  if (session.state === 'unusable') return 'a cell sent initialize without completing the session';
  if (session.state === 'none' || eraOf(cell.revision) !== 'legacy') return undefined;
  const isolation = isolationOf(cell);
  const wanted = isolation.kind === 'shared' && isolation.lane ? isolation.lane.split('|').slice(2).join('|') : undefined;
  return wanted === session.key ? undefined : `its session (${session.key ?? '?'}) is not the one this cell needs`;
}

/** Statuses after which a shared process is known to be in the state a fresh one would be in. */
const CLEAN = new Set<CellResult['status']>(['pass', 'skip']);

/** A cell that errs (the harness could not run it to its end) leaves a process nobody can vouch for. */
const RETIRES = new Set<CellResult['status']>(['error']);

/** Options of a {@link StdioHost}. */
export interface StdioHostOptions {
  /** How long a process may take to answer the check between two cells. */
  readonly checkTimeoutMs: number;
}

/** Cells over one stdio transport of one server. */
export class StdioHost implements Host {
  readonly #transport: StdioTransport;
  readonly #options: StdioHostOptions;
  #processes = 0;

  constructor(transport: StdioTransport, options: StdioHostOptions) {
    this.#transport = transport;
    this.#options = options;
  }

  #spawn(): StdioSession {
    this.#processes += 1;
    return new StdioSession({ command: this.#transport.command, cwd: this.#transport.cwd, env: this.#transport.env }, this.#transport.id);
  }

  processCount(): number {
    return this.#processes;
  }

  async runFresh(cell: Cell, run: CellRunner): Promise<CellResult> {
    const session = new CellSession(this.#spawn(), { revision: cell.revision, owns: true });
    return run(cell, session, { process: 'fresh', notes: [] });
  }

  /**
   * Whether a process that served a cell still answers, with nothing of the last cell arriving after it. After a
   * cell that did not pass, the check is strict: no message at all may have arrived since that cell ended (a
   * response, a request or a notification could belong to what the failing cell left behind), only the answer,
   * and the answer must be a result.
   */
  async #stillClean(lane: LaneProcess, revision: string): Promise<string | undefined> {
    const base = lane.session;
    if (base.hasExited()) return 'it exited';
    const sent = base.log.events.length;
    const from = lane.suspect ? lane.endedAt : sent;
    const id = harnessId('check');
    await base.send(livenessRequest(id, revision));
    const answer = await awaitAnswer(base.log, sent, id, Date.now() + this.#options.checkTimeoutMs);
    const check = eraOf(revision) === 'legacy' ? 'ping' : 'server/discover';
    if (answer.kind !== 'answer') return `it did not answer a ${check} (${answer.kind})`;
    // After a failing cell the answer must also be a result: an error means the process no longer serves the lane's era.
    if (lane.suspect && !('result' in answer.message)) return `it answered a ${check} with an error`;
    const late = base.log.events
      .slice(from)
      .find(
        (event) =>
          event.kind === 'violation' ||
          (event.kind === 'message' && (lane.suspect ? !isAnswerTo(event.message, id) : isForeignResponse(event.message))),
      );
    if (late) return `something of the previous cell arrived late${lane.suspect ? ` (it ended as ${lane.suspect})` : ''}`;
    return undefined;
  }

  /** Why the lane's process cannot take this cell, if it cannot (then a new process is started). */
  async #unfit(lane: LaneProcess, cell: Cell, ids: readonly string[]): Promise<string | undefined> {
    const isolation = isolationOf(cell);
    const role = isolation.kind === 'shared' ? isolation.role : 'body';
    if (isolation.kind === 'shared' && isolation.exactIds && lane.served > 0) return 'this cell must be the first on its process';
    if (ids.some((id) => lane.rawIds.has(id)))
      return `this cell sends request ids as they are (${ids.join(', ')}) that the process has already seen`;
    if (['pre', 'head', 'solo'].includes(role) && lane.legacy.state !== 'none') return 'this cell needs a process without a legacy session';
    if (lane.spoiled && role !== 'end') return `${lane.lastScenario ?? 'the previous cell'} changed what the server holds`;
    return sessionMismatch(lane.legacy, cell) ?? (await this.#stillClean(lane, cell.revision));
  }

  async runShared(cells: readonly Cell[], run: CellRunner, onResult: (result: CellResult) => void, signal?: AbortSignal): Promise<void> {
    let lane: LaneProcess | undefined;
    const retire = async (): Promise<void> => {
      const old = lane;
      lane = undefined;
      await old?.session.close();
    };
    try {
      for (const cell of cells) {
        if (signal?.aborted) break;
        const notes: string[] = [];
        const ids = rawIds(cell);
        const unfit = lane ? await this.#unfit(lane, cell, ids) : undefined;
        if (lane && unfit !== undefined) {
          notes.push(`a new process: the one that ran ${lane.lastScenario ?? 'the previous cell'} was not reused (${unfit})`);
          await retire();
        }
        if (lane?.suspect)
          notes.push(`the process was kept after ${lane.lastScenario ?? 'the previous cell'} (${lane.suspect}): it still answers`);
        lane ??= {
          session: this.#spawn(),
          served: 0,
          lastScenario: undefined,
          spoiled: false,
          rawIds: new Set(),
          legacy: legacySession(),
          endedAt: 0,
          suspect: undefined,
        };
        const isolation = isolationOf(cell);
        const exact = isolation.kind === 'shared' && isolation.exactIds;
        const session = new CellSession(lane.session, { ...(exact ? {} : { slot: lane.served }), revision: cell.revision, owns: false });
        notes.push(
          lane.served === 0
            ? 'a new process (cells may follow on it)'
            : `a shared process: cell ${lane.served + 1} on it (after ${lane.lastScenario ?? '?'})`,
        );
        const translation = session.ids.describe();
        if (translation) notes.push(translation);
        const context = { process: lane.served === 0 ? ('fresh' as const) : ('shared' as const), legacySession: lane.legacy, notes };
        const result = await run(cell, session, context);
        lane.served += 1;
        lane.lastScenario = cell.scenario.id;
        for (const id of ids) lane.rawIds.add(id);
        onResult(result);
        const role = isolation.kind === 'shared' ? isolation.role : 'body';
        lane.spoiled ||= role === 'tail';
        lane.endedAt = lane.session.log.events.length;
        lane.suspect = CLEAN.has(result.status) ? undefined : result.status;
        if (role === 'end' || role === 'solo' || RETIRES.has(result.status) || lane.session.hasExited()) await retire();
      }
    } finally {
      await retire();
    }
  }

  async close(): Promise<void> {
    // Processes live only as long as their cell or lane.
  }
}

/** True for the response to the check request `id`. */
function isAnswerTo(message: unknown, id: string): boolean {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && (message as Record<string, unknown>)['id'] === id;
}

/** A response that is not to one of the app's own requests: on a quiet process, it belongs to an earlier cell. */
function isForeignResponse(message: unknown): boolean {
  if (Array.isArray(message)) return true;
  if (typeof message !== 'object' || message === null || 'method' in message) return false;
  return !isHarnessId((message as Record<string, unknown>)['id']);
}
