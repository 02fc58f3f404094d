/**
 * The inspector page (no framework: the DOM API, a few small modules, one esbuild bundle served by the CLI; it
 * needs nothing from the network). Tabs for the server, tools, resources, prompts, tasks, the wire view and
 * conformance runs, with the arrow keys moving between tabs; the server's requests appear above the tabs until answered.
 */
import { followEvents, rpc } from './api.js';
import { ConformancePanel } from './conformance-panel.js';
import { resourcesPanel, promptsPanel, resourceUpdated, toolsPanel } from './catalog-panels.js';
import { announce, fill, h, pre } from './dom.js';
import { InputsPanel } from './inputs-panel.js';
import { LoginPanel, type LoginState } from './login-panel.js';
import { errorBox } from './results.js';
import { TasksPanel } from './tasks-panel.js';
import { ServerLog } from './server-log.js';
import { WireView, type WireEntry } from './wire-view.js';

type State = Record<string, unknown> & { serverCapabilities?: Record<string, unknown> | null };

const TABS = ['Server', 'Tools', 'Resources', 'Prompts', 'Tasks', 'Wire', 'Conformance'] as const;
type Tab = (typeof TABS)[number];

const header = h('header', {});
const statusLine = h('p', { id: 'status-line', class: 'status', role: 'status', 'aria-live': 'polite' });
const tabList = h('div', { role: 'tablist', 'aria-label': 'Inspector sections' });
const panels = new Map<Tab, HTMLElement>();
const tabs = new Map<Tab, HTMLButtonElement>();
const loaded = new Set<Tab>();
let state: State = {};

const wire = new WireView((count) => (tabs.get('Wire')!.textContent = `Wire (${count})`));
const conformance = new ConformancePanel();
const tasks = new TasksPanel();
const serverLog = new ServerLog();
const login = new LoginPanel(() => void refresh());
const inputs = new InputsPanel((count) => (document.title = count ? `(${count}) wiremcp inspect` : 'wiremcp inspect'));

function select(tab: Tab, focus = false): void {
  for (const [name, button] of tabs) {
    const on = name === tab;
    button.setAttribute('aria-selected', String(on));
    button.tabIndex = on ? 0 : -1;
    panels.get(name)!.hidden = !on;
  }
  if (focus) tabs.get(tab)!.focus();
  if (!loaded.has(tab)) {
    loaded.add(tab);
    const panel = panels.get(tab)!;
    if (tab === 'Tools') void toolsPanel(panel);
    if (tab === 'Resources')
      void resourcesPanel(panel, Boolean((state.serverCapabilities?.resources as { subscribe?: boolean } | undefined)?.subscribe));
    if (tab === 'Prompts') void promptsPanel(panel);
    if (tab === 'Conformance') void conformance.load();
    if (tab === 'Tasks') void tasks.load();
  }
}

for (const tab of TABS) {
  const id = tab.toLowerCase();
  const button = h('button', { type: 'button', role: 'tab', id: `tab-${id}`, 'aria-controls': `panel-${id}` }, tab);
  button.addEventListener('click', () => select(tab));
  button.addEventListener('keydown', (event) => {
    const index = TABS.indexOf(tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step) select(TABS[(index + step + TABS.length) % TABS.length]!, true);
    if (event.key === 'Home') select(TABS[0], true);
    if (event.key === 'End') select(TABS[TABS.length - 1]!, true);
  });
  tabs.set(tab, button);
  tabList.append(button);
  panels.set(tab, h('section', { role: 'tabpanel', id: `panel-${id}`, 'aria-labelledby': `tab-${id}`, tabindex: 0 }));
}
panels.get('Wire')!.append(wire.element);
panels.get('Conformance')!.append(conformance.element);
panels.get('Tasks')!.append(tasks.element);

function showState(): void {
  const info = (state.serverInfo ?? {}) as Record<string, unknown>;
  const name = `${String(info.title ?? info.name ?? 'server')} ${String(info.version ?? '')}`.trim();
  fill(
    header,
    h('h1', {}, 'wiremcp inspect'),
    h(
      'p',
      { class: 'summary' },
      h('strong', {}, name),
      ` · ${String(state.target ?? '')} · era ${String(state.era ?? '?')} · ${String(state.protocolVersion ?? '?')} · `,
      h(
        'span',
        { class: state.closed || !state.connected ? 'bad' : 'good' },
        state.closed ? `closed: ${String(state.closed)}` : state.connected ? 'connected' : 'not connected',
      ),
    ),
  );
  fill(
    panels.get('Server')!,
    h('h2', {}, 'Server'),
    h(
      'dl',
      { class: 'facts' },
      ...[
        ['Name', String(info.name ?? '')],
        ['Version', String(info.version ?? '')],
        ['Era', String(state.era ?? '')],
        ['Protocol revision', String(state.protocolVersion ?? '')],
        ['Target', String(state.target ?? '')],
      ].flatMap(([term, value]) => [h('dt', {}, term!), h('dd', {}, value!)]),
    ),
    typeof state.instructions === 'string' ? h('h3', {}, 'Instructions') : undefined,
    typeof state.instructions === 'string' ? h('pre', { class: 'content-text' }, state.instructions) : undefined,
    h('h3', {}, 'Server capabilities'),
    pre(state.serverCapabilities ?? {}, { 'aria-label': 'Server capabilities' }),
    h('h3', {}, 'Client capabilities (declared by the inspector)'),
    pre(state.clientCapabilities ?? {}),
  );
}

function onEvent(event: Record<string, unknown>): void {
  switch (event.type) {
    case 'wire':
      return wire.add(event.entry as WireEntry);
    case 'input':
      return inputs.add(event.id as number, String(event.method), (event.params ?? {}) as Record<string, unknown>);
    case 'input-done':
      return inputs.done(event.id as number, String(event.outcome));
    case 'conformance':
      return loaded.has('Conformance') ? conformance.onEvent(Number(event.run), (event.event ?? {}) as Record<string, unknown>) : undefined;
    case 'task':
      return tasks.onTask((event.task ?? {}) as Record<string, unknown>);
    case 'task-lost':
      return tasks.onLost(String(event.taskId), String(event.reason));
    case 'closed':
      state = { ...state, closed: event.reason };
      showState();
      return announce(`The connection closed: ${String(event.reason)}`);
    case 'login':
      return login.event(event);
    case 'notification': {
      const params = (event.params ?? {}) as Record<string, unknown>;
      if (event.method === 'notifications/tasks/status') tasks.onTask(params);
      if (event.method === 'notifications/message') serverLog.add(params);
      if (event.method === 'notifications/resources/updated' && typeof params.uri === 'string') resourceUpdated(params.uri);
      if (event.method === 'notifications/tools/list_changed' && loaded.has('Tools')) void toolsPanel(panels.get('Tools')!);
      if (event.method === 'notifications/prompts/list_changed' && loaded.has('Prompts')) void promptsPanel(panels.get('Prompts')!);
      return;
    }
  }
}

/** After a login: the state again, and the open tab's lists loaded again (they failed before). */
async function refresh(): Promise<void> {
  state = await rpc<State>('state');
  showState();
  const open = TABS.find((tab) => !panels.get(tab)!.hidden) ?? 'Server';
  loaded.clear();
  select(open);
}

async function main(): Promise<void> {
  document.body.append(header, statusLine, login.element, serverLog.element, inputs.element, h('nav', {}, tabList), ...panels.values());
  try {
    state = await rpc<State>('state');
  } catch (error) {
    fill(header, h('h1', {}, 'wiremcp inspect'), errorBox((error as Error).message));
    return;
  }
  showState();
  login.show(state.login as LoginState | null);
  select('Server');
  void followEvents(onEvent, (down) => (down ? announce('The inspector is not reachable; retrying…') : undefined));
  // The history before this page opened (the handshake), after the stream started so that nothing falls between.
  const history = await rpc<{ entries: WireEntry[] }>('wire');
  for (const entry of history.entries) wire.add(entry);
}

void main();
