/**
 * MCP Apps views in the inspector: a tool whose definition or result links a `ui://` resource shows that view under
 * its result. The inspector reads the resource from its target and serves it from an origin of its own (the view
 * server: another loopback port, the view's declared CSP in the response header, no token, no cookies); the page loads
 * that URL into an iframe sandboxed to scripts only (an opaque origin: the page, its storage and its token are out of
 * reach) and speaks the extension's postMessage JSON-RPC through `AppBridge`. Every request the view makes is written
 * to the view's log: tool calls and reads (relayed through the inspector's own operations, so they are in the wire
 * view too), and links, messages and context updates, which the inspector refuses.
 */
import { resourceUriOf, type UiResourceMeta } from '@wiremcp/ext-apps';
import { AppBridge, type AppBridgeProblem } from '@wiremcp/ext-apps/host';
import { ApiError, rpc } from './api.js';
import { fill, h } from './dom.js';
import { errorBox } from './results.js';

type Item = Record<string, unknown>;

/** Entries a view's log keeps (a flooding view cannot grow the page without bound). */
const KEPT = 200;

/** The view shown now: one at a time, torn down when another tool is called or chosen. */
let current: AppBridge | undefined;

/** The `ui://` resource of a call: the result's own `_meta.ui.resourceUri`, else the tool's. */
export function viewUriOf(tool: Item, result: Item | undefined): string | undefined {
  const own = result ? resourceUriOf({ name: String(tool.name), _meta: result._meta as Item | undefined }) : undefined;
  return own ?? resourceUriOf({ name: String(tool.name), _meta: tool._meta as Item | undefined });
}

/** Stops the view shown (if any). */
export function closeView(): void {
  current?.dispose();
  current = undefined;
}

const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * Shows the view of `uri` in `root` for a call of `tool` with `args` that returned `result` (the view gets both once
 * it has initialised).
 */
export async function showView(root: HTMLElement, uri: string, args: Item, result: Item): Promise<void> {
  closeView();
  const log = h('ol', { class: 'log-list app-log', 'aria-label': `Requests of the view ${uri}`, role: 'log' });
  const status = h('p', { class: 'muted', role: 'status' }, `Loading ${uri}…`);
  const note = (text: string, kind = 'info'): void => {
    log.prepend(h('li', { class: `log-${kind}` }, `${new Date().toLocaleTimeString()} ${text}`));
    while (log.children.length > KEPT) log.lastElementChild!.remove();
  };
  const iframe = h('iframe', { class: 'app-view', title: `MCP App view ${uri}` });
  fill(
    root,
    h(
      'section',
      { class: 'app-view-box', 'aria-label': `MCP App view ${uri}` },
      h('h4', {}, `View ${uri}`),
      status,
      iframe,
      h('details', { open: true }, h('summary', {}, 'What the view asked for'), log),
    ),
  );
  let view: { url: string; resourceMeta: UiResourceMeta };
  try {
    view = await rpc<{ url: string; resourceMeta: UiResourceMeta }>('app-view', { uri });
  } catch (error) {
    fill(status, errorBox(`The view cannot be shown: ${(error as Error).message}`));
    iframe.remove();
    return;
  }
  const bridge = new AppBridge({
    server: {
      callTool: async (name, callArgs = {}) => {
        const answer = await rpc<{ result?: Item; invalid?: string[] }>('call', { name, arguments: callArgs });
        if (answer.invalid) throw new ApiError(`invalid arguments: ${answer.invalid.join('; ')}`.slice(0, 500), -32602);
        return answer.result ?? {};
      },
      readResource: (readUri) => rpc('read', { uri: readUri }),
      listAllTools: async () => (await rpc<{ tools: { name: string }[] }>('tools')).tools,
    },
    iframe,
    src: view.url,
    resourceMeta: view.resourceMeta,
    hostInfo: { name: 'wiremcp inspect', version: '1' },
    hostContext: { theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light', locale: navigator.language },
    toolInput: args,
    // Tool calls and reads are the view's job: allowed, and each one written to the log (and the wire view).
    consent: {
      callTool: ({ name, arguments: callArgs }) => (note(`tools/call ${name} ${short(callArgs)} (allowed)`), true),
      readResource: ({ uri: readUri }) => (note(`resources/read ${readUri} (allowed)`), true),
      openLink: ({ url }) => (note(`ui/open-link ${url} (refused: the inspector opens no links for a view)`, 'warning'), false),
      message: ({ role }) => (note(`ui/message as ${role} (refused: there is no conversation here)`, 'warning'), false),
      updateModelContext: () => (note('ui/update-model-context (refused: there is no model here)', 'warning'), false),
    },
    onLog: (params) => note(`log ${String(params.level ?? 'info')}: ${short(params.data)}`),
    onProblem: (problem: AppBridgeProblem, detail: string) => note(`${problem}: ${detail}`, 'error'),
  });
  current = bridge;
  try {
    bridge.start();
  } catch (error) {
    fill(status, errorBox(`The view cannot be shown: ${(error as Error).message}`));
    return;
  }
  await bridge.initialized;
  if (current !== bridge) return;
  status.textContent = `${uri} is running (sandboxed, its own origin)`;
  note('ui/notifications/initialized: tool input and result sent');
  bridge.sendToolResult(result);
}
