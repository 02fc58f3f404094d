/**
 * The conjugation-table view of the grammar App (MCP Apps): one HTML document, no external resource (the default,
 * restrictive CSP suffices), speaking the extension's JSON-RPC over postMessage without any library. It shows a
 * verb's 15 forms (5 tenses × 3 persons, English and Spanish); picking another verb calls `conjugate` through the
 * host's bridge once per cell. It reports its size, answers teardown and ping, and shows errors in place.
 */
import { PERSON_LABELS, PERSONS, TENSE_LABELS, TENSES, VERBS } from './table/index.js';

/** The view's HTML. */
export function conjugationTableHtml(): string {
  const config = JSON.stringify({
    verbs: VERBS,
    tenses: TENSES.map((tense) => ({ key: tense, label: TENSE_LABELS[tense] })),
    persons: PERSONS.map((person) => ({ key: person, label: PERSON_LABELS[person] })),
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>§A13 conjugation table</title>
<style>
  :root { color-scheme: light dark; --fg: var(--color-text-primary, #171717); --bg: var(--color-background-primary, #ffffff);
    --muted: var(--color-text-secondary, #5f6368); --line: var(--color-border-primary, #d0d7de); font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 12px; color: var(--fg); background: var(--bg); }
  h1 { font-size: 16px; margin: 0 0 8px; }
  #pick { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; }
  table { border-collapse: collapse; width: 100%; font-size: 13px; }
  th, td { border: 1px solid var(--line); padding: 4px 6px; text-align: left; }
  td .es { color: var(--muted); }
  #status { font-size: 12px; color: var(--muted); margin-top: 6px; }
  #status.error { color: #b3261e; }
</style>
</head>
<body>
<h1>§A13 conjugation table</h1>
<div id="pick"><label for="verb">Verb</label><select id="verb"></select><button id="go" type="button">Conjugate</button></div>
<table id="table"><thead><tr id="head"><th>tense</th></tr></thead><tbody id="rows"></tbody></table>
<div id="status">waiting for the host…</div>
<script>
(() => {
  const config = ${config};
  const pending = new Map();
  let nextId = 1;
  const $ = (id) => document.getElementById(id);
  const status = (text, error) => { $('status').textContent = text; $('status').className = error ? 'error' : ''; };
  const post = (message) => window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ id, method, params });
  });
  const notify = (method, params) => post({ method, params });
  const reportSize = () => notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight });

  for (const verb of config.verbs) { const option = document.createElement('option'); option.value = verb; option.textContent = verb; $('verb').append(option); }
  for (const person of config.persons) { const th = document.createElement('th'); th.textContent = person.label; $('head').append(th); }
  for (const tense of config.tenses) {
    const tr = document.createElement('tr');
    const th = document.createElement('th'); th.textContent = tense.label; tr.append(th);
    for (const person of config.persons) { const td = document.createElement('td'); td.id = 'cell-' + tense.key + '-' + person.key; tr.append(td); }
    $('rows').append(tr);
  }

  let run = 0;
  async function fill(verb) {
    const mine = ++run;
    $('verb').value = verb;
    status('conjugating ' + verb + '…');
    let done = 0;
    try {
      for (const tense of config.tenses) {
        for (const person of config.persons) {
          const result = await request('tools/call', { name: 'conjugate', arguments: { verb, tense: tense.key, person: person.key } });
          if (mine !== run) return;
          if (result.isError) throw new Error((result.content && result.content[0] && result.content[0].text) || 'tool error');
          const row = result.structuredContent || {};
          const cell = $('cell-' + tense.key + '-' + person.key);
          cell.textContent = '';
          const en = document.createElement('span'); en.className = 'en'; en.textContent = row.english || result.content[0].text;
          const es = document.createElement('span'); es.className = 'es'; es.textContent = row.spanish ? ' (' + row.spanish + ')' : '';
          cell.append(en, es);
          done++;
        }
      }
      status(verb + ': ' + done + ' forms');
    } catch (error) {
      status('error: ' + (error && error.message ? error.message : String(error)), true);
    }
    reportSize();
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && pending.has(message.id) && !message.method) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message)); else resolve(message.result);
      return;
    }
    switch (message.method) {
      case 'ui/notifications/tool-input':
        if (message.params && message.params.arguments && typeof message.params.arguments.verb === 'string') fill(message.params.arguments.verb);
        break;
      case 'ui/notifications/tool-result': {
        const row = message.params && message.params.structuredContent;
        if (row && row.verb) document.title = '§A13: ' + row.verb;
        break;
      }
      case 'ui/resource-teardown': post({ id: message.id, result: {} }); break;
      case 'ping': post({ id: message.id, result: {} }); break;
      default:
        if (message.id !== undefined && message.method) post({ id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });

  // A click, not a form submission: a view runs sandboxed without allow-forms, where forms never submit.
  $('go').addEventListener('click', () => fill($('verb').value));
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'grammar-conjugation-table', version: '0.1.0' }, appCapabilities: { availableDisplayModes: ['inline'] } })
    .then(() => { notify('ui/notifications/initialized', {}); status('ready'); reportSize(); })
    .catch((error) => status('the host refused the view: ' + error.message, true));
})();
</script>
</body>
</html>
`;
}
