/**
 * The bus as a handler's legacy sessions see it (`SessionTransportBus`): this process's tag, publishing, whether
 * another process is alive, and what a standalone stream's hand-over needs to know of the server events relayed
 * between the processes — which event a notification being sent carries, and which of the events this process
 * published the bus has not brought back to it yet (those come after everything it heard so far: the bus delivers
 * in one order, the publisher's own messages included).
 */
import type { SessionTransportBus } from './legacy/session-transport-host.js';
import type { BusMessage, SessionBus } from './session-bus.js';
import type { HttpEventRelay } from './servable.js';

/** Own publications remembered until their echo (beyond this, the oldest are forgotten: a bus that lost them). */
const MAX_UNECHOED = 4096;

/** The sessions' view of the bus, and the handler's side of it (see the module comment). */
export interface SessionBusView extends SessionTransportBus {
  /** This process published the server event `event` (relayed). */
  published(event: { id: string }): void;
  /** A server event this process published came back to it on the bus. */
  echoed(event: unknown): void;
  /** The bus may have lost messages: the echoes awaited will not come. */
  forgetEchoes(): void;
}

/** See the module comment; `relay` is the server's relay, once attached (`undefined` when the server relays nothing). */
export function sessionBusView(
  bus: SessionBus,
  origin: string,
  publish: (message: BusMessage) => void,
  relay: () => HttpEventRelay | undefined,
  relaysEvents: boolean,
): SessionBusView {
  // Each own event whose echo is still to come, with the sessions that stored it on their standalone stream (and as
  // which event of that stream).
  const unechoed = new Map<string, { sessionId: string; seq: number }[]>();
  return {
    origin,
    publish,
    publishNow: async (message) => {
      await bus.publish(message);
    },
    relaysEvents,
    ...(bus.alive === undefined ? {} : { alive: (other: string) => Promise.resolve(bus.alive!(other)) }),
    relayedEvent: () => relay()?.current,
    stored: (sessionId, seq) => {
      const id = relay()?.current;
      if (id !== undefined) unechoed.get(id)?.push({ sessionId, seq });
    },
    late: (sessionId) => {
      const late: { id: string; seq: number }[] = [];
      for (const [id, stores] of unechoed) {
        const stored = stores.find((entry) => entry.sessionId === sessionId);
        if (stored !== undefined) late.push({ id, seq: stored.seq });
      }
      return late;
    },
    published: (event) => {
      unechoed.set(event.id, []);
      if (unechoed.size > MAX_UNECHOED) unechoed.delete(unechoed.keys().next().value!);
    },
    echoed: (event) => {
      const id = (event as { id?: unknown } | null)?.id;
      if (typeof id === 'string') unechoed.delete(id);
    },
    forgetEchoes: () => unechoed.clear(),
  };
}
