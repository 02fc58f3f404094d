/**
 * The command timeout of the Redis connections, which a busy process cannot mistake for a silent Redis.
 *
 * ioredis' own `commandTimeout` is a plain timer. When the process gets no CPU for longer than the timeout (a machine
 * starved by other work, a long synchronous task), Redis answers in time but the answer waits in the socket: the
 * event loop's next turn runs its due timers before it reads sockets, so the command fails as "timed out" — and every
 * request needing it is refused with a 503, "the session store cannot be reached", while Redis is healthy. Here a
 * due timeout first lets the event loop read what has arrived (`setImmediate` runs after the turn's I/O); only a
 * command still unanswered then fails. A Redis that really does not answer still fails the command after the timeout
 * (plus that one turn).
 */
import type { Command, Redis } from 'ioredis';

/** Commands already given a timer (a command sent again after a reconnection keeps its first one, as ioredis'). */
const timed = new WeakSet<Command>();

function arm(command: Command, timeoutMs: number): void {
  if (timed.has(command)) return;
  timed.add(command);
  const timer = setTimeout(() => {
    if (command.isResolved) return;
    setImmediate(() => {
      if (!command.isResolved) command.reject(new Error('Command timed out'));
    });
  }, timeoutMs);
  const clear = (): void => clearTimeout(timer);
  command.promise.then(clear, clear);
}

/**
 * Bounds every command `client` sends (plain, pipelined, in a transaction, scripts) by `timeoutMs`, as described in
 * the module comment. The client must be made without ioredis' `commandTimeout`.
 */
export function boundCommands(client: Redis, timeoutMs: number): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    arm(command, timeoutMs);
    return send(command, stream);
  };
}
