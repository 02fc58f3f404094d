/**
 * Tools that exercise the utilities around a call: logging, progress, cancellation, and the resource
 * subscription fixture. Logging and progress reach the client only when it asked (a `logging/setLevel` or the
 * request's `_meta` log level; a `progressToken`), which the server enforces.
 */
import { LOG_LEVELS } from '@wiremcp/protocol';
import type { McpServer, ToolAnnotations } from '@wiremcp/server';
import { abortableSleep } from './abortable-sleep.js';
import { READ_ONLY } from './content-tools.js';
import { WATCHED_URI, type WatchedResource } from './resources.js';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Hints of a tool that changes server state but nothing outside it. */
export const MUTATES_SERVER: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** The three messages of `test_tool_with_logging`, in order (the conformance suite wants three at info). */
export const TOOL_LOG_MESSAGES = ['Tool execution started', 'Tool processing data', 'Tool execution completed'] as const;

/** Registers the logging, progress, cancellation and subscription tools. */
export function registerUtilityTools(server: McpServer, watched: WatchedResource): void {
  server.registerTool(
    {
      name: 'test_tool_with_logging',
      title: 'Logging during a call',
      description: 'Sends three info log messages about 50 ms apart while it runs, then returns. Conformance: tools-call-with-logging.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      for (const [index, message] of TOOL_LOG_MESSAGES.entries()) {
        if (index > 0) await abortableSleep(50, ctx.signal);
        await ctx.log('info', message, 'test_tool_with_logging');
      }
      return { content: [{ type: 'text', text: `Tool with logging executed: ${TOOL_LOG_MESSAGES.length} info messages sent` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_logging_tool',
      title: 'One log message per level',
      description:
        'Logs one message at each of the eight levels (debug … emergency), so level filtering can be observed: ' +
        'logging/setLevel in legacy sessions, the request _meta log level in 2026-07-28 (no messages without it). ' +
        'Conformance: server-stateless (no log without logLevel).',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      for (const level of LOG_LEVELS) await ctx.log(level, `A ${level} message`, 'test_logging_tool');
      return { content: [{ type: 'text', text: `Logged one message at each of ${LOG_LEVELS.length} levels` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_tool_with_progress',
      title: 'Progress during a call',
      description:
        'Reports progress 0/100, 50/100 and 100/100 about 50 ms apart when the request carries a progressToken. ' +
        'Conformance: tools-call-with-progress.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      await ctx.sendProgress(0, 100, 'Started');
      await abortableSleep(50, ctx.signal);
      await ctx.sendProgress(50, 100, 'Halfway');
      await abortableSleep(50, ctx.signal);
      await ctx.sendProgress(100, 100, 'Done');
      // The official v1 SDK client dispatches notifications a microtask late but responses at once, so a last
      // progress notification that reaches it in the same read as the response finds its handler gone and is
      // dropped. The conformance suite counts three; a pause before answering keeps them in separate reads.
      await abortableSleep(50, ctx.signal);
      return { content: [{ type: 'text', text: 'Progress test completed: 3 progress notifications sent' }] };
    },
  );

  server.registerTool(
    {
      name: 'test_long_running_operation',
      title: 'Long-running, cancellable operation',
      description:
        'Runs for durationMs in equal steps, reporting progress after each step, and stops as soon as the request is ' +
        'cancelled (notifications/cancelled), in which case no result is sent. For cancellation and progress scenarios.',
      inputSchema: {
        type: 'object',
        properties: {
          durationMs: { type: 'integer', minimum: 0, maximum: 600_000, default: 5000, description: 'Total duration in ms.' },
          steps: { type: 'integer', minimum: 1, maximum: 1000, default: 5, description: 'Number of progress steps.' },
        },
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    async (args: { durationMs?: number; steps?: number }, ctx) => {
      const duration = args.durationMs ?? 5000;
      const steps = args.steps ?? 5;
      for (let step = 1; step <= steps; step++) {
        await abortableSleep(duration / steps, ctx.signal);
        await ctx.sendProgress(step, steps, `Step ${step} of ${steps}`);
      }
      return { content: [{ type: 'text', text: `Long-running operation completed: ${steps} steps in ${duration} ms` }] };
    },
  );

  server.registerTool(
    {
      name: 'test_reconnection',
      title: 'Reconnection',
      description:
        'Over Streamable HTTP with resumable streams, closes the SSE stream of this call (SEP-1699 polling), then ' +
        'answers about 100 ms later: the client resumes with GET and Last-Event-ID to receive it. Conformance: ' +
        'server-sse-polling. Elsewhere (stdio, JSON answers) there is no stream to close and it simply completes.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      // The HTTP transport offers the stream control on the request's info (legacy sessions with an event store).
      const closeSseStream = ctx.transportInfo?.closeSseStream;
      if (typeof closeSseStream === 'function') (closeSseStream as () => void)();
      await abortableSleep(100, ctx.signal);
      return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
    },
  );

  server.registerTool(
    {
      name: 'test_x_mcp_header',
      title: 'Mirrored arguments',
      description:
        'Echoes its arguments. `region` is annotated with x-mcp-header, so a 2026-07-28 HTTP client mirrors it in ' +
        'Mcp-Param-Region and the server checks the header against the body. Conformance: http-custom-header-server-validation.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Where to run; mirrored as Mcp-Param-Region.', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', description: 'Mirrored as Mcp-Param-Priority.', 'x-mcp-header': 'Priority' },
          query: { type: 'string', description: 'Not mirrored.' },
        },
        required: ['region'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    (args: { region: string; priority?: number; query?: string }) => ({
      content: [
        {
          type: 'text',
          text: `region=${args.region}${args.priority === undefined ? '' : ` priority=${args.priority}`}${args.query === undefined ? '' : ` query=${args.query}`}`,
        },
      ],
    }),
  );

  server.registerTool(
    {
      name: 'test_update_watched_resource',
      title: 'Change the watched resource',
      description: `Changes the content of ${WATCHED_URI} and notifies its subscribers (notifications/resources/updated).`,
      inputSchema: NO_ARGUMENTS,
      outputSchema: {
        type: 'object',
        properties: { uri: { type: 'string' }, version: { type: 'integer' } },
        required: ['uri', 'version'],
      },
      annotations: MUTATES_SERVER,
    },
    () => {
      const version = watched.bump(server);
      return {
        content: [{ type: 'text', text: `${WATCHED_URI} is now at version ${version}` }],
        structuredContent: { uri: WATCHED_URI, version },
      };
    },
  );
}
