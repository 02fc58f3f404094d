/**
 * The Tasks tab: start a tool call as a task (the tools whose `execution.taskSupport` allows it), see every task
 * the page started with its status kept live (the inspector polls `tasks/get` and the server's
 * `notifications/tasks/status` are applied), list the session's tasks (`tasks/list`, 2025-11-25), and per task get,
 * wait for the result, or cancel. Server text is set as text only.
 */
import { ApiError, rpc } from './api.js';
import { announce, fill, h } from './dom.js';
import { errorBox, toolResult } from './results.js';
import { schemaForm, type SchemaForm } from './schema-form.js';

type Task = Record<string, unknown> & { taskId?: unknown };

/** The statuses a task does not leave. */
const FINISHED = new Set(['completed', 'failed', 'cancelled']);
type Tool = Record<string, unknown> & { name?: unknown; execution?: { taskSupport?: unknown } };

const message = (error: unknown): string =>
  error instanceof ApiError && error.code !== undefined ? `${error.message} (code ${String(error.code)})` : (error as Error).message;

/** The tab's state and elements. */
export class TasksPanel {
  readonly element = h('div', { class: 'tasks' });
  readonly #rows = h('tbody', {});
  readonly #outcome = h('div', { 'aria-live': 'polite' });
  readonly #picker = h('select', { id: 'task-tool' });
  readonly #formSlot = h('div', {});
  readonly #tools = new Map<string, Tool>();
  readonly #names = new Map<string, string>();
  /** The newest state shown per task (`at`: its `lastUpdatedAt`, NaN when it had none, which compares with nothing). */
  readonly #states = new Map<string, { status: string; at: number }>();
  #form: SchemaForm | undefined;

  constructor() {
    const start = h('button', { type: 'submit', class: 'primary' }, 'Start as task');
    const form = h(
      'form',
      { 'aria-label': 'Start a task' },
      h('label', { for: 'task-tool' }, 'Tool'),
      this.#picker,
      this.#formSlot,
      h('div', { class: 'buttons' }, start),
    );
    this.#picker.addEventListener('change', () => this.#chooseTool());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#start();
    });
    const list = h('button', { type: 'button' }, 'List tasks (tasks/list)');
    list.addEventListener('click', () => void this.#list());
    fill(
      this.element,
      h('h2', {}, 'Tasks'),
      form,
      h('div', { class: 'buttons' }, list),
      this.#outcome,
      h(
        'table',
        { class: 'conf-table', 'aria-label': 'Tasks' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Task'),
            h('th', {}, 'Tool'),
            h('th', {}, 'Status'),
            h('th', {}, 'Message'),
            h('th', {}, 'Updated'),
            h('th', {}, ''),
          ),
        ),
        this.#rows,
      ),
    );
  }

  /** Lists the tools that can run as tasks. */
  async load(): Promise<void> {
    try {
      const { tools } = await rpc<{ tools: Tool[] }>('tools');
      const capable = tools.filter((tool) => ['optional', 'required'].includes(String(tool.execution?.taskSupport)));
      for (const tool of capable) this.#tools.set(String(tool.name), tool);
      fill(
        this.#picker,
        ...capable.map((tool) =>
          h('option', { value: String(tool.name) }, `${String(tool.name)} (${String(tool.execution?.taskSupport)})`),
        ),
      );
      if (capable.length === 0) fill(this.#outcome, h('p', { class: 'muted' }, 'The server offers no tool that runs as a task.'));
      this.#chooseTool();
    } catch (error) {
      fill(this.#outcome, errorBox(message(error)));
    }
  }

  /** A task's new state (from the inspector's watch, a `tasks/get`, or the server's status notification). */
  onTask(task: Task): void {
    if (typeof task.taskId !== 'string') return;
    // A task's state comes from its events, from answers and from lists, over two connections, in any order: an
    // older state never replaces a newer one, and a finished task stays finished.
    const status = String(task.status ?? '');
    const at = typeof task.lastUpdatedAt === 'string' ? Date.parse(task.lastUpdatedAt) : NaN;
    const known = this.#states.get(task.taskId);
    if (known && ((FINISHED.has(known.status) && !FINISHED.has(status)) || at < known.at)) return;
    this.#states.set(task.taskId, { status, at: Number.isNaN(at) && known ? known.at : at });
    const row = this.#row(task.taskId);
    const cells = row.children;
    fill(cells[2]!, String(task.status ?? ''));
    cells[2]!.className = task.status === 'failed' || task.status === 'cancelled' ? 'bad' : task.status === 'completed' ? 'good' : '';
    fill(cells[3]!, typeof task.statusMessage === 'string' ? task.statusMessage : '');
    fill(cells[4]!, typeof task.lastUpdatedAt === 'string' ? task.lastUpdatedAt : '');
    announce(`Task ${task.taskId}: ${String(task.status)}`);
  }

  /** A watched task whose server stopped answering. */
  onLost(taskId: string, reason: string): void {
    const row = this.#row(taskId);
    fill(row.children[2]!, 'lost');
    row.children[2]!.className = 'bad';
    fill(row.children[3]!, `the server stopped answering: ${reason}`);
  }

  #chooseTool(): void {
    const tool = this.#tools.get(this.#picker.value);
    this.#form = tool ? schemaForm(tool.inputSchema, 'Arguments') : undefined;
    fill(this.#formSlot, this.#form?.element);
  }

  #row(taskId: string): HTMLTableRowElement {
    const existing = Array.from(this.#rows.children).find((row) => (row as HTMLElement).dataset.taskId === taskId);
    if (existing) return existing as HTMLTableRowElement;
    const act = (label: string, run: () => Promise<void>): HTMLButtonElement => {
      const button = h('button', { type: 'button', 'aria-label': `${label} ${taskId}` }, label);
      button.addEventListener('click', () => void run().catch((error: unknown) => fill(this.#outcome, errorBox(message(error)))));
      return button;
    };
    const row = h(
      'tr',
      {},
      h('td', { class: 'mono' }, taskId),
      h('td', {}, this.#names.get(taskId) ?? ''),
      h('td', {}),
      h('td', {}),
      h('td', {}),
      h(
        'td',
        {},
        act('Get', async () => void (await rpc<{ task: Task }>('task-get', { taskId }))),
        act('Result', async () => {
          fill(this.#outcome, h('p', { class: 'muted' }, `Waiting for the result of ${taskId}…`));
          const { result } = await rpc<{ result: Record<string, unknown> }>('task-result', { taskId });
          fill(this.#outcome, toolResult(result));
        }),
        act('Cancel', async () => void (await rpc('task-cancel', { taskId }))),
      ),
    );
    row.dataset.taskId = taskId;
    this.#rows.prepend(row);
    return row;
  }

  async #start(): Promise<void> {
    const name = this.#picker.value;
    const read = this.#form?.read() ?? { value: {}, problems: [] };
    if (!name) return fill(this.#outcome, errorBox('Choose a tool.'));
    if (read.problems.length) return fill(this.#outcome, errorBox(read.problems.join('; ')));
    try {
      const answer = await rpc<{ task?: Task; result?: Record<string, unknown>; invalid?: string[] }>('task-call', {
        name,
        arguments: read.value,
      });
      if (answer.invalid) return fill(this.#outcome, errorBox(`The arguments do not match the input schema: ${answer.invalid.join('; ')}`));
      if (answer.task && typeof answer.task.taskId === 'string') {
        this.#names.set(answer.task.taskId, name);
        this.onTask(answer.task);
        fill(this.#row(answer.task.taskId).children[1]!, name);
        fill(this.#outcome, h('p', { class: 'muted' }, `${name} runs as task ${answer.task.taskId}.`));
      } else
        fill(
          this.#outcome,
          h('p', { class: 'muted' }, `${name} answered at once (the server chose not to start a task):`),
          toolResult(answer.result ?? {}),
        );
    } catch (error) {
      fill(this.#outcome, errorBox(message(error)));
    }
  }

  async #list(): Promise<void> {
    try {
      const { tasks } = await rpc<{ tasks: Task[] }>('tasks-list');
      for (const task of tasks) this.onTask(task);
      announce(`tasks/list: ${tasks.length} task(s)`);
    } catch (error) {
      fill(this.#outcome, errorBox(message(error)));
    }
  }
}
