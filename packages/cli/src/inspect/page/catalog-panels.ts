/**
 * The tools, resources (with templates, completion and live subscriptions) and prompts panels: each lists what the
 * server offers and shows one item with a form built from its schema or arguments.
 */
import { ApiError, rpc } from './api.js';
import { closeView, showView, viewUriOf } from './app-view.js';
import { announce, fill, h } from './dom.js';
import { errorBox, promptMessages, resourceContents, toolResult } from './results.js';
import { schemaForm } from './schema-form.js';

type Item = Record<string, unknown>;

const message = (error: unknown): string =>
  error instanceof ApiError && error.code !== undefined ? `${error.message} (code ${String(error.code)})` : (error as Error).message;

/** A list of items on the left, the chosen one on the right. */
function listAndDetail(label: string): { element: HTMLElement; list: HTMLElement; detail: HTMLElement } {
  const list = h('ul', { class: 'item-list', 'aria-label': label });
  const detail = h('div', { class: 'detail' });
  return { element: h('div', { class: 'split' }, h('nav', { 'aria-label': label }, list), detail), list, detail };
}

function itemButton(item: Item, onChoose: () => void): HTMLLIElement {
  const title = typeof item.title === 'string' && item.title !== item.name ? ` — ${item.title}` : '';
  return h('li', {}, h('button', { type: 'button', class: 'item', onclick: onChoose }, `${String(item.name ?? item.uri)}${title}`));
}

/** The tools panel. */
export async function toolsPanel(root: HTMLElement): Promise<void> {
  const { element, list, detail } = listAndDetail('Tools');
  fill(root, element);
  try {
    const { tools } = await rpc<{ tools: Item[] }>('tools');
    fill(list, ...tools.map((tool) => itemButton(tool, () => showTool(detail, tool))));
    if (tools.length === 0) fill(list, h('li', { class: 'muted' }, 'No tools.'));
  } catch (error) {
    fill(detail, errorBox(message(error)));
  }
}

function showTool(detail: HTMLElement, tool: Item): void {
  closeView();
  const name = String(tool.name);
  const form = schemaForm(tool.inputSchema, 'Arguments');
  const outcome = h('div', { 'aria-live': 'polite' });
  const call = h('button', { type: 'submit', class: 'primary' }, 'Call tool');
  const element = h('form', { 'aria-label': `Call ${name}` }, form.element, h('div', { class: 'buttons' }, call));
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const read = form.read();
      if (read.problems.length) return fill(outcome, errorBox(read.problems.join('; ')));
      call.disabled = true;
      fill(outcome, h('p', { class: 'muted' }, 'Calling…'));
      try {
        const answer = await rpc<{ result?: Item; invalid?: string[] }>('call', { name, arguments: read.value });
        if (answer.invalid) fill(outcome, errorBox(`The arguments do not match the input schema: ${answer.invalid.join('; ')}`));
        else {
          const result = answer.result ?? {};
          const uri = viewUriOf(tool, result);
          const view = uri === undefined ? undefined : h('div', {});
          fill(outcome, toolResult(result), view);
          // An MCP Apps view linked from the tool or its result: shown under the result (app-view.ts).
          if (view !== undefined) void showView(view, uri!, read.value, result);
        }
        announce(answer.invalid ? `${name}: invalid arguments` : `${name} answered`);
      } catch (error) {
        fill(outcome, errorBox(message(error)));
      } finally {
        call.disabled = false;
      }
    })();
  });
  fill(
    detail,
    h('h3', {}, name),
    typeof tool.description === 'string' ? h('p', {}, tool.description) : undefined,
    tool.annotations ? h('p', { class: 'muted mono' }, JSON.stringify(tool.annotations)) : undefined,
    element,
    outcome,
  );
  form.first?.focus();
}

/** Live subscriptions: URI → the function that refreshes what is shown. */
const subscriptions = new Map<string, () => void>();

/** Called for every `notifications/resources/updated`: a subscribed resource shown is read again. */
export function resourceUpdated(uri: string): void {
  subscriptions.get(uri)?.();
}

/** The resources panel: resources, templates with completion, subscriptions. */
export async function resourcesPanel(root: HTMLElement, canSubscribe: boolean): Promise<void> {
  const { element, list, detail } = listAndDetail('Resources');
  fill(root, element);
  try {
    const [{ resources }, { resourceTemplates }] = await Promise.all([
      rpc<{ resources: Item[] }>('resources'),
      rpc<{ resourceTemplates: Item[] }>('templates').catch(() => ({ resourceTemplates: [] as Item[] })),
    ]);
    fill(
      list,
      ...resources.map((resource) => itemButton(resource, () => void showResource(detail, String(resource.uri), canSubscribe))),
      ...resourceTemplates.map((template) =>
        itemButton({ ...template, name: `${String(template.uriTemplate)} (template)` }, () => showTemplate(detail, template, canSubscribe)),
      ),
    );
  } catch (error) {
    fill(detail, errorBox(message(error)));
  }
}

async function showResource(detail: HTMLElement, uri: string, canSubscribe: boolean): Promise<void> {
  const body = h('div', { 'aria-live': 'polite' });
  const updates = h('p', { class: 'muted', role: 'status' });
  let count = 0;
  const read = async (): Promise<void> => {
    try {
      fill(body, resourceContents(await rpc('read', { uri })));
    } catch (error) {
      fill(body, errorBox(message(error)));
    }
  };
  const toggle = h(
    'button',
    { type: 'button', 'aria-pressed': String(subscriptions.has(uri)) },
    subscriptions.has(uri) ? 'Unsubscribe' : 'Subscribe',
  );
  toggle.addEventListener('click', () => {
    void (async () => {
      const on = !subscriptions.has(uri);
      try {
        await rpc(on ? 'subscribe' : 'unsubscribe', { uri });
        if (on)
          subscriptions.set(uri, () => {
            updates.textContent = `Updated ${++count} time${count === 1 ? '' : 's'} since subscribing`;
            void read();
          });
        else subscriptions.delete(uri);
        toggle.textContent = on ? 'Unsubscribe' : 'Subscribe';
        toggle.setAttribute('aria-pressed', String(on));
        announce(on ? `Subscribed to ${uri}` : `Unsubscribed from ${uri}`);
      } catch (error) {
        fill(updates, errorBox(message(error)));
      }
    })();
  });
  fill(detail, h('h3', { class: 'mono' }, uri), canSubscribe ? toggle : undefined, updates, body);
  await read();
}

/** `{name}`, `{+name}`, `{#name}` … of an RFC 6570 template (the names only). */
function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((match) =>
    match[1]!.split(',').map((name) => name.replace(/[*:].*$/, '')),
  );
}

function expand(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#]?)([^}]+)\}/g, (_whole, operator: string, names: string) =>
    names
      .split(',')
      .map((name) => {
        const value = values[name.replace(/[*:].*$/, '')] ?? '';
        return operator ? encodeURI(value) : encodeURIComponent(value);
      })
      .join(','),
  );
}

function showTemplate(detail: HTMLElement, template: Item, canSubscribe: boolean): void {
  const uriTemplate = String(template.uriTemplate);
  const inputs = new Map<string, HTMLInputElement>();
  const fields = templateVariables(uriTemplate).map((name) => {
    const id = `tpl-${name}`;
    const options = h('datalist', { id: `${id}-options` });
    const input = h('input', { id, type: 'text', list: options.id, autocomplete: 'off' });
    inputs.set(name, input);
    input.addEventListener('input', () => void complete({ type: 'ref/resource', uri: uriTemplate }, name, input, options, inputs));
    return h('div', { class: 'field' }, h('label', { for: id }, name), input, options);
  });
  const target = h('div', {});
  const form = h(
    'form',
    { 'aria-label': `Read from ${uriTemplate}` },
    ...fields,
    h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Read')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries([...inputs].map(([name, input]) => [name, input.value]));
    void showResource(target, expand(uriTemplate, values), canSubscribe);
  });
  fill(
    detail,
    h('h3', { class: 'mono' }, uriTemplate),
    typeof template.description === 'string' ? h('p', {}, template.description) : undefined,
    form,
    target,
  );
}

/** Asks the server to complete `name` (suggestions go into the field's datalist). */
async function complete(
  ref: Item,
  name: string,
  input: HTMLInputElement,
  options: HTMLDataListElement,
  all: Map<string, HTMLInputElement>,
): Promise<void> {
  const context = Object.fromEntries(
    [...all].filter(([other, field]) => other !== name && field.value).map(([other, field]) => [other, field.value]),
  );
  try {
    const result = await rpc<{ completion?: { values?: string[] } }>('complete', {
      ref,
      argument: { name, value: input.value },
      ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
    });
    fill(options, ...(result.completion?.values ?? []).slice(0, 100).map((value) => h('option', { value })));
  } catch {
    fill(options);
  }
}

/** The prompts panel. */
export async function promptsPanel(root: HTMLElement): Promise<void> {
  const { element, list, detail } = listAndDetail('Prompts');
  fill(root, element);
  try {
    const { prompts } = await rpc<{ prompts: Item[] }>('prompts');
    fill(list, ...prompts.map((prompt) => itemButton(prompt, () => showPrompt(detail, prompt))));
  } catch (error) {
    fill(detail, errorBox(message(error)));
  }
}

function showPrompt(detail: HTMLElement, prompt: Item): void {
  const name = String(prompt.name);
  const args = (Array.isArray(prompt.arguments) ? prompt.arguments : []) as Item[];
  const inputs = new Map<string, HTMLInputElement>();
  const fields = args.map((argument) => {
    const id = `prompt-${String(argument.name)}`;
    const options = h('datalist', { id: `${id}-options` });
    const input = h('input', { id, type: 'text', list: options.id, required: argument.required === true, autocomplete: 'off' });
    inputs.set(String(argument.name), input);
    input.addEventListener('input', () => void complete({ type: 'ref/prompt', name }, String(argument.name), input, options, inputs));
    const label = `${String(argument.name)}${argument.required === true ? ' *' : ''}`;
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      input,
      options,
      typeof argument.description === 'string' ? h('small', { class: 'hint' }, argument.description) : undefined,
    );
  });
  const outcome = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { 'aria-label': `Get ${name}` },
    ...fields,
    h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Get prompt')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries([...inputs].filter(([, input]) => input.value !== '').map(([key, input]) => [key, input.value]));
    void rpc('prompt', { name, arguments: values }).then(
      (result) => fill(outcome, promptMessages(result)),
      (error: unknown) => fill(outcome, errorBox(message(error))),
    );
  });
  fill(detail, h('h3', {}, name), typeof prompt.description === 'string' ? h('p', {}, prompt.description) : undefined, form, outcome);
}
