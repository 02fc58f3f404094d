/** How the page shows what a server returned: content blocks, structured content, errors. */
import { h, pre } from './dom.js';

type Block = Record<string, unknown>;

function block(item: Block): HTMLElement {
  if (item.type === 'text' && typeof item.text === 'string') return h('pre', { class: 'content-text' }, item.text);
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string' && typeof item.mimeType === 'string') {
    const src = `data:${item.mimeType};base64,${item.data}`;
    if (item.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(item.mimeType))
      return h('img', { src, alt: 'image content', class: 'content-image' });
    return h('p', {}, `${item.type} (${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes)`);
  }
  return pre(item, { class: 'content-json' });
}

/** A tool result: `isError`, content blocks and `structuredContent`. */
export function toolResult(result: Block): HTMLElement {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  return h(
    'div',
    { class: result.isError === true ? 'result error' : 'result', role: 'region', 'aria-label': 'Tool result' },
    h('h4', {}, result.isError === true ? 'Result (isError: true)' : 'Result'),
    ...content.map(block),
    result.structuredContent !== undefined ? h('h4', {}, 'structuredContent') : undefined,
    result.structuredContent !== undefined ? pre(result.structuredContent, { class: 'structured' }) : undefined,
  );
}

/** The contents of `resources/read`. */
export function resourceContents(result: Block): HTMLElement {
  const contents = Array.isArray(result.contents) ? (result.contents as Block[]) : [];
  return h(
    'div',
    { class: 'result' },
    ...contents.map((item) =>
      h(
        'div',
        {},
        h('h4', {}, `${String(item.uri)} ${typeof item.mimeType === 'string' ? `(${item.mimeType})` : ''}`),
        typeof item.text === 'string'
          ? h('pre', { class: 'content-text' }, item.text)
          : pre({ ...item, blob: typeof item.blob === 'string' ? `${item.blob.length} base64 chars` : undefined }),
      ),
    ),
  );
}

/** The messages of `prompts/get`. */
export function promptMessages(result: Block): HTMLElement {
  const messages = Array.isArray(result.messages) ? (result.messages as Block[]) : [];
  return h(
    'div',
    { class: 'result' },
    typeof result.description === 'string' ? h('p', {}, result.description) : undefined,
    ...messages.map((message) =>
      h('div', { class: 'message' }, h('h4', {}, String(message.role)), block((message.content ?? {}) as Block)),
    ),
  );
}

/** An error shown in place of a result (announced to screen readers). */
export function errorBox(message: string): HTMLElement {
  return h('div', { class: 'error-box', role: 'alert' }, message);
}
