/**
 * A host gives cells their sessions with one server over one transport: it starts server processes (or reaches
 * a URL), decides which cells share a process, and stops what it started. One host per server × transport.
 *
 * - stdio (`stdio-host.ts`): a process is one connection. Cells of a lane run one after another on one process;
 *   fresh cells get a process each.
 * - HTTP (`http-host.ts`): the server process of a registry server is started once, at warm-up, and every cell
 *   opens its own HTTP session on it, in parallel; fresh cells get a process of their own. A `--url` server is
 *   reached as it is.
 */
import type { CellSession } from '../session/cell-session.js';
import type { Cell, CellResult } from '../runner/cell-types.js';

/**
 * The legacy session of a lane's process: opened by the first cell that initializes (a handshake, or a head cell
 * that tests initialize), reused by the cells after it.
 */
export interface SharedLegacySession {
  /** none: nothing initialized yet; open: a session is open; unusable: initialize was sent, the session not completed. */
  readonly state: 'none' | 'open' | 'unusable';
  /** The `initialize` result of the open session. */
  readonly initializeResult: unknown;
  /** `revision|client capabilities (JSON)` of the open session. */
  readonly key: string | undefined;
  /** The scenario whose cell opened the session. */
  readonly openedBy: string | undefined;
  /** A cell sent `initialize`. */
  initializeSent(): void;
  /** A cell completed the session: `initialize` answered with `revision`, then `notifications/initialized`. */
  opened(result: unknown, revision: string, capabilities: unknown, scenario: string): void;
}

/** What a cell knows about the process it runs on. */
export interface CellContext {
  /** `fresh`: the cell has the process to itself; `shared`: other cells ran or will run on it. */
  readonly process: 'fresh' | 'shared';
  /** Legacy lanes: the session the cells of the lane share. */
  readonly legacySession?: SharedLegacySession;
  /** Lines for the cell's transcript (why a new process was started, how ids are translated). */
  readonly notes: readonly string[];
}

/** Runs one cell on a session the host opened; never throws. */
export type CellRunner = (cell: Cell, session: CellSession, context: CellContext) => Promise<CellResult>;

/** Where the cells of one server × transport get their sessions. */
export interface Host {
  /** Runs a cell on a process (stdio) or HTTP session of its own. */
  runFresh(cell: Cell, run: CellRunner): Promise<CellResult>;
  /**
   * Runs cells that may share a process, in order, reporting each result as it comes. stdio: one lane, one after
   * another; HTTP: the caller passes one cell at a time and runs several in parallel.
   */
  runShared(cells: readonly Cell[], run: CellRunner, onResult: (result: CellResult) => void, signal?: AbortSignal): Promise<void>;
  /** How many server processes the host started so far. */
  processCount(): number;
  /** Stops every process the host keeps. */
  close(): Promise<void>;
}
