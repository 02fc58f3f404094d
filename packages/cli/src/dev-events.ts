/**
 * What a `wiremcp dev` session reports (`dev-session.ts`), and how: one line for the terminal, and a log level for
 * the clients connected through it (they get each event as a `notifications/message` from the logger
 * {@link DEV_LOGGER}, so a host or the inspector shows a build error where the developer is looking).
 */
import type { LogLevel } from '@wiremcp/protocol';

/** What happened in a session. */
export type DevEvent =
  | { readonly kind: 'started'; readonly tools?: number }
  | { readonly kind: 'change'; readonly file: string }
  | { readonly kind: 'build-failed'; readonly message: string }
  | { readonly kind: 'start-failed'; readonly message: string }
  | { readonly kind: 'restarted'; readonly tools?: number; readonly resubscribed?: number }
  | { readonly kind: 'capabilities-changed'; readonly added: readonly string[]; readonly removed: readonly string[] }
  | { readonly kind: 'resubscribe-failed'; readonly uri: string; readonly message: string }
  | { readonly kind: 'exited'; readonly message: string };

/** The logger name of the messages a session sends its clients. */
export const DEV_LOGGER = 'wiremcp dev';

/** What `dev` says of an event: on stderr after `wiremcp dev: `, to the clients as the log message's data. */
export function describeDevEvent(event: DevEvent): string {
  const tools = (count: number | undefined): string => (count === undefined ? '' : ` (${count} tool${count === 1 ? '' : 's'})`);
  switch (event.kind) {
    case 'started':
      return `server started${tools(event.tools)}; watching its files`;
    case 'change':
      return `${event.file} changed`;
    case 'build-failed':
      return `the build failed; the running server keeps serving\n${event.message}`;
    case 'start-failed':
      return `the new server did not start (${event.message}); the running server keeps serving`;
    case 'restarted': {
      const subscriptions = event.resubscribed ? `; ${event.resubscribed} resource subscription(s) carried over` : '';
      return `restarted${tools(event.tools)}; clients told the lists changed${subscriptions}`;
    }
    case 'capabilities-changed': {
      const parts = [
        ...(event.added.length ? [`now declares ${event.added.join(', ')}`] : []),
        ...(event.removed.length ? [`no longer declares ${event.removed.join(', ')}`] : []),
      ];
      return (
        `the server ${parts.join(' and ')}; connected clients keep the capabilities of the first start ` +
        '(requests for what it dropped fail, what it added is not offered): restart wiremcp dev and reconnect to use them'
      );
    }
    case 'resubscribe-failed':
      return `the restarted server refused the subscription to ${event.uri} (${event.message}); its subscribers get no updates`;
    case 'exited':
      return `the server exited (${event.message}); it starts again on the next change`;
  }
}

/** The level clients get an event at. */
export function devEventLevel(event: DevEvent): LogLevel {
  switch (event.kind) {
    case 'build-failed':
    case 'start-failed':
    case 'exited':
      return 'error';
    case 'capabilities-changed':
    case 'resubscribe-failed':
      return 'warning';
    case 'change':
      return 'debug';
    default:
      return 'info';
  }
}
