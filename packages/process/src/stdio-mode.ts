import { StdioServerTransport } from '@wiremcp/transport-stdio';
import type { ServeMode } from './serve-mode.js';
import { UsageError } from './server-flags.js';

const FRAMINGS = ['auto', 'ndjson', 'content-length'] as const;
type StdioFraming = (typeof FRAMINGS)[number];

/**
 * Serving on this process's stdin and stdout, the default mode: `--framing ndjson|content-length|auto`
 * (default `auto`: detected from the client's first bytes and answered in kind).
 */
export const stdioMode: ServeMode = {
  flags: { framing: { type: 'string' } },
  usage:
    '  --framing ndjson|content-length|auto\n' +
    '              how messages are framed on stdin/stdout (default: auto, detected\n' +
    '              from the first bytes the client sends)\n',
  select(values, isDefault) {
    if (!isDefault) return undefined;
    const framing = values.framing ?? 'auto';
    if (typeof framing !== 'string' || !(FRAMINGS as readonly string[]).includes(framing)) {
      throw new UsageError(`--framing must be one of ndjson, content-length, auto, got ${JSON.stringify(framing)}`);
    }
    return {
      description: `stdio (framing: ${framing})`,
      protocolOnStdout: true,
      async serve(server, process) {
        const transport = new StdioServerTransport({ input: process.stdin, output: process.stdout, framing: framing as StdioFraming });
        const connection = await server.connect(transport);
        return {
          closed: transport.closed.then(() => transport.closeReason),
          close: () => connection.close(),
        };
      },
    };
  },
};
