/**
 * The client page: the built `@wiremcp/client` and `@wiremcp/transport-http`, with the browser's own `fetch`, against
 * a reference server over Streamable HTTP. `run(url, era)` goes through what a browser host does and returns what it
 * saw; the test compares it with what the server must have answered and with the requests the browser sent.
 */
import { McpClient } from '@wiremcp/client';
import { LocalError } from '@wiremcp/protocol';
import { httpTransportFactory } from '@wiremcp/transport-http';

/** What {@link run} saw. */
export interface ClientRun {
  readonly era: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly serverName: string | undefined;
  readonly tools: number;
  readonly simpleText: string;
  readonly progress: number[];
  readonly toolError: { isError: boolean | undefined; text: string };
  readonly listChanged: boolean;
  readonly reconnection: string;
  readonly cancelled: { code: string; afterProgress: number };
  readonly afterCancel: string;
}

const text = (result: { content?: unknown }): string => (result.content as Array<{ text?: string }>)[0]?.text ?? '';

/** Rejects with `what` when `promise` has not settled after `ms` (so a lost notification fails with a name). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

async function run(url: string, era: 'legacy' | 'modern'): Promise<ClientRun> {
  const client = new McpClient({ name: 'browser-page', version: '1.0.0' }, { era });
  try {
    await client.connect(httpTransportFactory(url, { legacySse: false }));
    const tools = await client.listAllTools();
    const simpleText = text(await client.callTool('test_simple_text', {}));
    const progress: number[] = [];
    await client.callTool('test_tool_with_progress', {}, { onprogress: ({ progress: p }) => progress.push(p) });
    const failed = await client.callTool('test_error_handling', {});

    let heard!: () => void;
    const changed = new Promise<void>((resolve) => (heard = resolve));
    const off = client.onToolsListChanged(() => heard());
    await off.ready;
    await client.callTool('test_trigger_tool_change', {});
    await within(changed, 10_000, 'notifications/tools/list_changed');
    off();

    const reconnection = text(await client.callTool('test_reconnection', {}));

    // Cancel a long operation once its first progress arrived over the request's SSE stream.
    const controller = new AbortController();
    let afterProgress = 0;
    const code = await client
      .callTool(
        'test_long_running_operation',
        { durationMs: 120_000, steps: 600 },
        {
          signal: controller.signal,
          onprogress: () => {
            afterProgress += 1;
            controller.abort();
          },
        },
      )
      .then(
        () => 'completed',
        (error: unknown) => (error instanceof LocalError ? error.code : String(error)),
      );
    const afterCancel = text(await client.callTool('test_simple_text', {}));
    return {
      era: client.era,
      protocolVersion: client.protocolVersion,
      serverName: client.serverInfo?.name,
      tools: tools.length,
      simpleText,
      progress,
      toolError: { isError: failed.isError, text: text(failed) },
      listChanged: true,
      reconnection,
      cancelled: { code, afterProgress },
      afterCancel,
    };
  } finally {
    await client.close();
  }
}

Object.assign(globalThis, { wiremcpClientPage: { run } });
