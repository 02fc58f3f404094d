/**
 * The task fixtures: tools that run as tasks (2025-11-25 task-augmented calls, the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension), under the names the official `tasks-*` conformance scenarios call.
 * `greet` never runs as a task; `slow_compute`, `protocol_error_job`, `confirm_delete` and `multi_input` may;
 * `failing_job` and `test_tool_with_task` must (a client without tasks gets `-32601`/`-32021`).
 */
import { ErrorCode, RpcError } from '@wiremcp/protocol';
import type { HandlerContext, McpServer } from '@wiremcp/server';
import { abortableSleep } from './abortable-sleep.js';
import { acceptedField } from './client-answers.js';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;
/** Longest `slow_compute` run, in seconds: long enough to cancel, bounded so a forgotten task ends. */
const MAX_SECONDS = 600;

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** A one-field form elicitation under `key`. */
function askField(ctx: HandlerContext, key: string, message: string, field: string, type: 'string' | 'boolean') {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return ctx.elicit({ message, requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] } }, { key });
}

/** Registers the task fixtures. */
export function registerTaskTools(server: McpServer): void {
  server.registerTool(
    {
      name: 'greet',
      description: 'Says hello; never runs as a task. Conformance: tasks-* (the synchronous tool).',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    ({ name }) => text(`Hello, ${name}!`),
  );

  server.registerTool(
    {
      name: 'slow_compute',
      description: 'Sleeps `seconds` seconds, then reports it; a task when the client supports tasks, cancelled by tasks/cancel.',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0, maximum: MAX_SECONDS }, label: { type: 'string', maxLength: 200 } },
        required: ['seconds'],
      },
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, ctx) => {
      await abortableSleep(seconds * 1000, ctx.signal);
      return text(`Computed for ${seconds}s${label === undefined ? '' : ` (${label})`}`);
    },
  );

  server.registerTool(
    {
      name: 'failing_job',
      description: 'Always a task; after about a second the tool reports an error (a completed task whose result has isError).',
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: 'required' },
    },
    async (_args, ctx) => {
      await abortableSleep(1000, ctx.signal);
      throw new Error('The job failed (as this fixture always does)');
    },
  );

  server.registerTool(
    {
      name: 'protocol_error_job',
      description: 'Fails with a JSON-RPC error (-32603): as a task, the task ends failed with that error inlined.',
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: 'optional' },
    },
    () => {
      throw new RpcError(ErrorCode.InternalError, 'The job hit an internal error (as this fixture always does)');
    },
  );

  server.registerTool(
    {
      name: 'confirm_delete',
      description: 'Asks the user to confirm deleting `filename` (input key "confirm"), then reports the decision.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string', maxLength: 200 } }, required: ['filename'] },
      execution: { taskSupport: 'optional' },
    },
    async ({ filename }, ctx) => {
      const answer = await askField(ctx, 'confirm', `Delete ${filename}?`, 'confirm', 'boolean');
      return text(acceptedField(answer, 'confirm') === 'true' ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );

  server.registerTool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once (input keys "name" and "confirm"), then reports both answers.',
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      const [name, confirm] = await Promise.all([
        askField(ctx, 'name', 'What is your name?', 'name', 'string'),
        askField(ctx, 'confirm', 'Proceed?', 'confirm', 'boolean'),
      ]);
      return text(`name=${String(acceptedField(name, 'name'))}, confirm=${String(acceptedField(confirm, 'confirm'))}`);
    },
  );

  server.registerTool(
    {
      name: 'test_tool_with_task',
      description:
        'Asks for the user\'s name (input key "user_name") in the request itself, then runs as a task that greets them. ' +
        'Conformance: tasks-mrtr-composition.',
      inputSchema: NO_ARGUMENTS,
      execution: {
        taskSupport: 'required',
        beforeTask: async (_args, ctx) => acceptedField(await askField(ctx, 'user_name', 'What is your name?', 'name', 'string'), 'name'),
      },
    },
    (_args, ctx) => text(`Hello, ${String(ctx.task?.prepared ?? 'stranger')}! (from task ${ctx.task?.taskId ?? '-'})`),
  );
}
