/**
 * The worker page: an `McpServer` (the everything server) runs in a dedicated worker (`server-worker.ts`), and the
 * built client talks to it in the page through `MessagePortTransport` over a `MessageChannel`. The client's port is
 * tapped, so the test sees the JSON text that crossed. `hostile()` writes to a second connection what a client must
 * never send (text that is not JSON, a value that is not text, an oversized message) and checks it keeps serving.
 */
import { McpClient } from '@wiremcp/client';
import { MessagePortTransport, type MessagePortLike } from '@wiremcp/jsonrpc';
import { LocalError } from '@wiremcp/protocol';

/** What {@link run} saw. */
export interface WorkerRun {
  readonly era: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly serverName: string | undefined;
  readonly tools: number;
  readonly simpleText: string;
  readonly progress: number[];
  readonly toolError: boolean | undefined;
  readonly sampled: string;
  readonly cancelled: { code: string; afterProgress: number; id: unknown };
  readonly afterCancel: string;
  /** What the worker reported after the client closed: connections still open there. */
  readonly workerAfterClose: number;
  /** Every text the client's port sent (`out`) and received (`in`), in order. */
  readonly wire: { dir: 'in' | 'out'; text: string }[];
}

/** What {@link hostile} saw: the answers to each bad message, then to a good one. */
export interface HostileRun {
  readonly notJson: unknown;
  readonly notText: unknown;
  readonly oversized: unknown;
  readonly afterwards: unknown;
}

type WorkerNews = { connected?: number; closed?: number; error?: string };

const text = (result: { content?: unknown }): string => (result.content as Array<{ text?: string }>)[0]?.text ?? '';

/** Starts the worker and resolves once it reports `what`, failing on its `error` event. */
function news(worker: Worker, what: keyof WorkerNews): Promise<WorkerNews> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker reported no ${what} within 10 s`)), 10_000);
    const onMessage = (event: MessageEvent<WorkerNews>): void => {
      if (event.data.error) reject(new Error(`worker: ${event.data.error}`));
      else if (event.data[what] === undefined) return;
      else resolve(event.data);
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', (event) => reject(new Error(`worker failed: ${event.message}`)), { once: true });
  });
}

/** A new connection to the worker: one end of a fresh channel, the other handed to the worker. */
function dial(worker: Worker): MessagePort {
  const channel = new MessageChannel();
  worker.postMessage(null, [channel.port2]);
  return channel.port1;
}

/** The port as the transport sees it, recording each text that crosses. */
function tap(port: MessagePort, wire: WorkerRun['wire']): MessagePortLike {
  return {
    postMessage(message) {
      if (typeof message === 'string') wire.push({ dir: 'out', text: message });
      port.postMessage(message);
    },
    addEventListener(type: 'message' | 'close', listener: (event: { data: unknown }) => void) {
      port.addEventListener(type, (event: Event) => {
        const data = (event as MessageEvent).data as unknown;
        if (typeof data === 'string') wire.push({ dir: 'in', text: data });
        listener({ data });
      });
    },
    start: () => port.start(),
    close: () => port.close(),
  } as MessagePortLike;
}

async function run(era: 'legacy' | 'modern'): Promise<WorkerRun> {
  const worker = new Worker('/server-worker.js', { type: 'module' });
  const wire: WorkerRun['wire'] = [];
  const client = new McpClient(
    { name: 'browser-worker-host', version: '1.0.0' },
    {
      era,
      handlers: {
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'from the page' }, model: 'page-model' }),
      },
    },
  );
  try {
    const connected = news(worker, 'connected');
    await client.connect(new MessagePortTransport(tap(dial(worker), wire)));
    await connected;
    const tools = await client.listAllTools();
    const simpleText = text(await client.callTool('test_simple_text', {}));
    const progress: number[] = [];
    await client.callTool('test_tool_with_progress', {}, { onprogress: ({ progress: p }) => progress.push(p) });
    const toolError = (await client.callTool('test_error_handling', {})).isError;
    const sampled = text(await client.callTool('test_sampling', { prompt: 'hello from the worker' }));

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
    const longCall = wire.find((entry) => entry.dir === 'out' && entry.text.includes('"test_long_running_operation"'));
    const id = longCall ? (JSON.parse(longCall.text) as { id: unknown }).id : undefined;
    const afterCancel = text(await client.callTool('test_simple_text', {}));
    const identity = { era: client.era, protocolVersion: client.protocolVersion, serverName: client.serverInfo?.name };
    const closed = news(worker, 'closed');
    await client.close();
    const { closed: workerAfterClose } = await closed;
    return {
      ...identity,
      tools: tools.length,
      simpleText,
      progress,
      toolError,
      sampled,
      cancelled: { code, afterProgress, id },
      afterCancel,
      workerAfterClose: workerAfterClose!,
      wire,
    };
  } finally {
    await client.close();
    worker.terminate();
  }
}

/** Sends `message` raw on `port` and resolves with the next text answer, parsed. */
function exchange(port: MessagePort, message: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer within 10 s')), 10_000);
    port.addEventListener(
      'message',
      (event) => {
        clearTimeout(timer);
        resolve(JSON.parse(event.data as string));
      },
      { once: true },
    );
    port.postMessage(message);
  });
}

async function hostile(): Promise<HostileRun> {
  const worker = new Worker('/server-worker.js', { type: 'module' });
  try {
    const connected = news(worker, 'connected');
    const port = dial(worker);
    port.start();
    await connected;
    const notJson = await exchange(port, '{"jsonrpc":"2.0","id":1,"method":');
    const notText = await exchange(port, { jsonrpc: '2.0', id: 2, method: 'ping' });
    const oversized = await exchange(port, `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`);
    const afterwards = await exchange(port, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }));
    return { notJson, notText, oversized, afterwards };
  } finally {
    worker.terminate();
  }
}

Object.assign(globalThis, { wiremcpWorkerPage: { run, hostile } });
