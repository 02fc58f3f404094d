/**
 * Resuming a legacy SSE stream (`GET` with `Last-Event-ID`) in a session: what the event store kept after the
 * client's last event is replayed, then what comes next is carried — from here when the stream runs here; for a
 * request's stream another process runs, by following it there (live until its end, see `RemoteStream`), and when
 * that process died, by ending it with an error for each request still owed (stored first, so a later resumption
 * replays it). The session's standalone stream, held elsewhere, is taken over: held here from then on
 * (`standalone-handover.ts`).
 */
import type { EventStore } from '../event-store.js';
import type { BusMessage, FollowMessage } from '../session-bus.js';
import type { SseConnection } from '../sse-connection.js';
import { LegacyStream, parseEventId, parseStreamInfo, type StreamHost } from './legacy-stream.js';
import { RemoteStream, type RemoteStreamHost } from './remote-stream.js';
import type { SessionTransportBus } from './session-transport.js';
import type { HttpReply } from '../adapter-contract.js';

/** The error ending a request whose process died (found by the process its stream was resumed on). */
export const PROCESS_LOST = {
  code: -32603,
  message: 'Internal error: the server process running this request stopped before it finished; send the request again',
  data: { reason: 'server-process-lost' },
} as const;

/** The answer to a `follow` of a stream this process does not run (any more): done, read the store. */
export function streamUnknown(origin: string, follow: FollowMessage): BusMessage {
  return {
    kind: 'stream',
    origin,
    target: follow.origin,
    sessionId: follow.sessionId,
    streamId: follow.streamId,
    events: [],
    head: -1,
    done: true,
  };
}

/** What resuming needs of a session's transport. */
export interface ResumableSession {
  /** The transport, as its streams' host (session id, store, bus, report, connection count). */
  readonly host: StreamHost & { readonly bus?: SessionTransportBus };
  readonly ownerCheckMs: number;
  closed(): boolean;
  /** The stream running here under `streamId`, if any. */
  live(streamId: string): LegacyStream | undefined;
  /** Why no stream may be opened now (`undefined` when one may). */
  refusal(): unknown;
  /** Opens a connection (the caller checked {@link refusal}). */
  openConnection(): SseConnection;
  /** The streams of other processes followed here. */
  readonly remotes: Set<RemoteStream>;
  /** Takes the standalone stream `streamId` over from `owner` onto `connection`, the client having seen `last`. */
  takeOver(streamId: string, owner: string, connection: SseConnection, last: number): void;
}

/** Resumes the stream named by `lastEventId`; see the module comment. `undefined` when it cannot be (400). */
export async function resumeStream(session: ResumableSession, lastEventId: string): Promise<HttpReply | undefined> {
  const host = session.host;
  const store = host.store;
  const parsed = parseEventId(lastEventId);
  if (store === undefined || parsed === undefined) return undefined;
  const live = session.live(parsed.streamId);
  live?.beginResume();
  let replay;
  try {
    replay = await store.replay(host.sessionId, parsed.streamId, parsed.seq);
  } catch (error) {
    host.report(error);
  }
  if (replay === undefined || session.closed() || session.refusal() !== undefined) {
    live?.abortResume();
    return undefined;
  }
  const connection = session.openConnection();
  if (live !== undefined && !live.done) {
    live.completeResume(connection, replay);
    return connection.response;
  }
  const info = parseStreamInfo(replay.info);
  const bus = host.bus;
  if (!replay.complete && bus !== undefined && info?.kind === 'standalone') {
    session.takeOver(parsed.streamId, info.owner, connection, parsed.seq);
    return connection.response;
  }
  if (replay.complete || bus === undefined || info === undefined || info.owner === bus.origin) {
    // Ended (or ended here), or not followable: replay what is stored, then close.
    const stream = new LegacyStream(host, parsed.streamId);
    stream.completeResume(connection, replay);
    connection.close();
    return connection.response;
  }
  const remote = new RemoteStream(remoteHost(session, store, bus), parsed.streamId, info, connection, parsed.seq);
  session.remotes.add(remote);
  remote.writeReplay(replay.events);
  remote.start();
  return connection.response;
}

function remoteHost(session: ResumableSession, store: EventStore, bus: SessionTransportBus): RemoteStreamHost {
  return {
    sessionId: session.host.sessionId,
    store,
    bus,
    report: session.host.report,
    ownerCheckMs: session.ownerCheckMs,
    connectionEnded: () => session.host.connectionEnded(),
    ended: (remote) => session.remotes.delete(remote),
    ownerDied: (remote) => ownerDied(session, remote),
  };
}

/** The process running a stream resumed here died, and what it stored has been written. */
function ownerDied(session: ResumableSession, remote: RemoteStream): void {
  remote.stop();
  if (session.closed() || !remote.connection.open) return;
  const stream = new LegacyStream(session.host, remote.streamId, undefined, remote.last);
  stream.attach(remote.connection);
  for (const id of remote.info.ids ?? []) {
    if (!remote.answered.has(id)) stream.send(JSON.stringify({ jsonrpc: '2.0', id, error: PROCESS_LOST }));
  }
  stream.finish();
}
