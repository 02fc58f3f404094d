/**
 * How the processes serving one set of legacy sessions (several instances behind a load balancer, sharing a
 * {@link SessionStore} and an {@link EventStore}) hand each other the messages that belong to a part of a session
 * held by another process: a client's answer to a server→client request (sampling, elicitation, roots) or its
 * `notifications/cancelled`, which must reach the process running that request; and a server message bound for
 * the session's standalone GET stream, which must reach the process holding that stream; and word that a session
 * ended or that its recorded state changed, so copies held elsewhere are dropped and restored afresh. Besides
 * sessions, it carries the server-wide events (list changes, resource updates) raised on one process to the
 * 2026-07-28 listen streams held by the others.
 */
import type { SessionState } from './session-store.js';

/** One message on the bus. Plain data: it serialises as JSON. */
export type BusMessage =
  /**
   * A client message for another process: a response, or `notifications/cancelled`, for the process running the
   * request it names; or any message POSTed for a 2024-11-05 HTTP+SSE session, for the process holding its stream
   * (`target`), with the request's headers (credentials left out) and authenticated principal.
   */
  | {
      readonly kind: 'deliver';
      readonly origin: string;
      readonly sessionId: string;
      readonly json: string;
      readonly target?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly auth?: unknown;
    }
  /** A server message for the standalone GET stream of the session, wherever it is open. */
  | { readonly kind: 'standalone'; readonly origin: string; readonly sessionId: string; readonly json: string }
  /**
   * The session's recorded state changed (`state`, with the state when known) or the session ended (`ended`): copies
   * elsewhere are dropped, or brought to the new state while in use.
   */
  | { readonly kind: 'state'; readonly origin: string; readonly sessionId: string; readonly state?: SessionState }
  | { readonly kind: 'ended'; readonly origin: string; readonly sessionId: string }
  /** A server-wide event raised on the `origin` process (the server's `ServerEvent`), for every other process. */
  | { readonly kind: 'event'; readonly origin: string; readonly event: unknown }
  /**
   * Asks the process running a stream (`target`) to forward its events after `after` to `origin`, which resumed the
   * stream for a client (`unfollow`: no more).
   */
  | {
      readonly kind: 'follow' | 'unfollow';
      readonly origin: string;
      readonly target: string;
      readonly sessionId: string;
      readonly streamId: string;
      readonly after: number;
    }
  /**
   * A stream's events forwarded to the process following it (`target`), in order, once stored; `head` is the last
   * event written so far (those up to it are in the event store), `done` says the stream ended (or is unknown there).
   */
  | {
      readonly kind: 'stream';
      readonly origin: string;
      readonly target: string;
      readonly sessionId: string;
      readonly streamId: string;
      readonly events: readonly { readonly seq: number; readonly data: string }[];
      readonly head: number;
      readonly done: boolean;
    }
  /**
   * A process takes the session's standalone stream `streamId` over (its client resumed it there). Every process
   * hears it at the same point of the bus: the one holding the stream stops storing its events there and answers
   * `released`; from there on the taker hears them. `owner` is the process the stream's stored description names: it
   * answers even when it holds nothing (then without a `head`).
   */
  | { readonly kind: 'handover'; readonly origin: string; readonly sessionId: string; readonly streamId: string; readonly owner: string }
  /**
   * The answer to a `handover`, for its taker (`target`): `head` is the stream's last event, stored before this was
   * sent; absent when the stream is not held here. `late`: the ids of the server events this process raised and
   * stored on the stream (up to `head`) that the bus ordered after the `handover` (their own echo had not come back
   * when it heard the `handover`): the taker heard them too, and drops its copies.
   */
  | {
      readonly kind: 'released';
      readonly origin: string;
      readonly target: string;
      readonly sessionId: string;
      readonly streamId: string;
      readonly head?: number;
      readonly late?: readonly string[];
    };

/** The `follow` and `unfollow` messages. */
export type FollowMessage = Extract<BusMessage, { kind: 'follow' | 'unfollow' }>;
/** The `handover` and `released` messages. */
export type HandoverMessage = Extract<BusMessage, { kind: 'handover' | 'released' }>;
/** The `stream` messages (events forwarded to a follower). */
export type StreamMessage = Extract<BusMessage, { kind: 'stream' }>;

/**
 * A publish/subscribe channel between the processes of one deployment (e.g. Redis pub/sub). Contract:
 * - `publish` hands a message to every subscribed process, the publisher's own subscription included (the handler
 *   ignores its own messages by `origin`); delivery is at most once, in publish order per publisher; a message with
 *   a `target` is for that process only (a bus may deliver it to that process alone, or to all);
 * - `subscribe` returns a function that ends the subscription;
 * - a failure to publish rejects (or throws); the handler reports it and goes on (the message is lost).
 */
export interface SessionBus {
  publish(message: BusMessage): void | Promise<void>;
  subscribe(listener: (message: BusMessage) => void): () => void;
  /**
   * Optional: calls `listener` each time messages may have been lost — the bus's connection dropped and is back (a
   * Redis restarted, a network cut). The handler then checks each session it holds against the session store
   * before serving it again, so a session deleted or changed meanwhile is not served from a stale copy.
   */
  onMessagesLost?(listener: () => void): () => void;
  /**
   * Optional: makes this process, known on the bus as `origin`, visible to the others as alive for as long as it
   * runs (and its connection to the bus holds), and receives the messages addressed to it (`target`). Without it,
   * no process can tell whether another one died.
   */
  join?(origin: string): void | Promise<void>;
  /**
   * Optional: whether the process `origin` is alive (it joined and its connection holds): `false` once it died,
   * `undefined` when the bus cannot tell now (it is itself reconnecting).
   */
  alive?(origin: string): boolean | undefined | Promise<boolean | undefined>;
}

/** The separator between the process tag and the original id in a server→client request id sent with a bus. */
const TAG = '~';

/**
 * A server→client request id tagged with the process that sent it (`<process>~n<number>` or `<process>~s<string>`),
 * so that an answer arriving at another process is routed back, and ids of different processes never collide.
 */
export function tagRequestId(origin: string, id: string | number): string {
  return `${origin}${TAG}${typeof id === 'number' ? 'n' : 's'}${id}`;
}

/** Splits a tagged id: the process and the original id; `undefined` when the id is not tagged. */
export function untagRequestId(id: unknown): { origin: string; id: string | number } | undefined {
  if (typeof id !== 'string') return undefined;
  const at = id.indexOf(TAG);
  if (at <= 0) return undefined;
  const kind = id[at + 1];
  const rest = id.slice(at + 2);
  if (kind === 's') return { origin: id.slice(0, at), id: rest };
  if (kind === 'n' && /^-?\d+(\.\d+)?$/.test(rest)) return { origin: id.slice(0, at), id: Number(rest) };
  return undefined;
}
