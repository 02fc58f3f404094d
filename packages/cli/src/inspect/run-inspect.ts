/**
 * `wiremcp inspect`: connects to the target (recording the wire), starts the local inspector server, prints its
 * URL (and opens it with `--open`), and serves the page until the process is stopped (Ctrl-C, SIGTERM). When the
 * target goes away the page stays up, showing why, so that the wire view can still be read and downloaded. A URL
 * target that answers 401 (without `--auth`) is not an error: the page offers to log in (`inspector-login.ts`).
 */
import { connectTarget, type Connection, type ConnectionOptions } from '../connect.js';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';
import { knownSecrets, secretRedactor } from '../redact-secrets.js';
import { describeTarget, type Target } from '../target.js';
import { appViewOperations } from './app-views.js';
import { ConformanceRun, conformanceTarget, locateConformanceApp } from './conformance-run.js';
import { startInspectorServer } from './inspector-server.js';
import { InspectorSession, type InspectorEvent } from './inspector-session.js';
import { InspectorTasks } from './inspector-tasks.js';
import { startViewServer, type ViewServer } from './view-server.js';
import { WireTransport, wireFetch } from './wire-log.js';

/** How the inspector is served. */
export interface InspectServeOptions {
  /** The port on 127.0.0.1 (default: any free port). */
  readonly port?: number;
  /** Open the page in the default browser. */
  readonly open?: boolean;
  /** How the page and the terminal name the target (default: its command line or URL). */
  readonly label?: string;
  /** Stops serving when aborted (default: SIGINT or SIGTERM). */
  readonly signal?: AbortSignal;
  /** Values to hide wherever text from the target reaches the page (a configuration's `${…}` values). */
  readonly secrets?: readonly string[];
}

/** Where the command writes. */
export interface InspectIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

function stopSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** Runs the inspector; resolves with the exit code once stopped. */
export async function runInspect(target: Target, options: ConnectionOptions, serve: InspectServeOptions, io: InspectIo): Promise<number> {
  if (serve.port !== undefined && (serve.port < 0 || serve.port > 65535))
    throw new CliError(`--port needs 0–65535, got ${serve.port}`, CLI_EXIT_CODES.usage);
  // What the target or the conformance app prints reaches the page with credentials hidden: the values given as
  // --header, --env or configuration secrets, and whatever looks like one (redact-secrets.ts).
  const redact = secretRedactor([...(serve.secrets ?? []), ...knownSecrets(options)]);
  const session = new InspectorSession(serve.label ?? describeTarget(target), redact);
  // The Conformance tab runs the checkout's conformance app against this same target (see conformance-run.ts).
  const conformance = new ConformanceRun({
    app: locateConformanceApp(),
    target: conformanceTarget(target, options, options.cwd),
    emit: (event) => session.publish(event as InspectorEvent),
    redact,
  });
  session.extend(conformance.operations);
  const tasks = new InspectorTasks({
    client: () => session.connectedClient(),
    validate: (name, args) => session.validateCall(name, args),
    publish: (event) => session.publish(event),
  });
  session.extend(tasks.operations);
  const stop = serve.signal ? { signal: serve.signal, dispose: () => {} } : stopSignal();
  let views: ViewServer | undefined;
  try {
    const tapped: ConnectionOptions = {
      ...options,
      tap: { fetch: (inner) => wireFetch(session.wire, inner), transport: (inner) => new WireTransport(inner, session.wire) },
    };
    // Set now, or later by a login from the page.
    const current: { connection?: Connection } = {};
    const connected = (opened: Connection): void => {
      current.connection = opened;
      session.attach(opened);
      opened.client.onClose((error) =>
        io.err(`wiremcp inspect: the connection ended${error ? ` (${error.message})` : ''}; the page stays up until Ctrl-C\n`),
      );
    };
    try {
      connected(await connectTarget(target, tapped, session.handlers));
    } catch (error) {
      // A URL that wants a login: the page offers it (the flow runs here, the tokens stay here).
      if (!(target.kind === 'http' && !options.auth && error instanceof CliError && error.exitCode === CLI_EXIT_CODES.authorization))
        throw error;
      const reason = error.message.replace(/ \(the server needs authorization: try --auth\)$/, '');
      io.err(`wiremcp inspect: ${reason}; log in from the page\n`);
      session.offerLogin(reason, async (open) => {
        const opened = await connectTarget(target, { ...tapped, auth: true, authOpen: open }, session.handlers);
        if (stop.signal.aborted) {
          await opened.close();
          throw new Error('the inspector stopped');
        }
        connected(opened);
        io.err('wiremcp inspect: logged in\n');
      });
    }
    let server;
    try {
      // MCP Apps views run from an origin of their own (view-server.ts), framed by the page only.
      views = await startViewServer();
      session.extend(appViewOperations({ client: () => session.connectedClient(), views }));
      server = await startInspectorServer(session, { ...(serve.port === undefined ? {} : { port: serve.port }), viewOrigin: views.origin });
      const port = new URL(server.origin).port;
      views.embedBy([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    } catch (error) {
      await current.connection?.close();
      throw new CliError(`cannot serve the inspector: ${error instanceof Error ? error.message : String(error)}`, CLI_EXIT_CODES.usage);
    }
    io.out(
      `wiremcp inspect: ${session.target} is open at\n  ${server.url}\n(only this URL, with its token, opens the page; Ctrl-C stops)\n`,
    );
    if (serve.open) {
      const { openBrowser } = await import('@wiremcp/auth/node');
      if (!(await openBrowser(server.url))) io.err('wiremcp inspect: could not open a browser; open the URL above\n');
    }
    if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
    session.markClosed('the inspector stopped');
    conformance.dispose();
    tasks.dispose();
    await server.close();
    await current.connection?.close();
    return CLI_EXIT_CODES.ok;
  } finally {
    await views?.close();
    stop.dispose();
  }
}
