/**
 * The page's DOM helpers. Text from the server is only ever set as text (never parsed as HTML), so a hostile
 * server cannot script the inspector.
 */

/** Attributes of {@link h}: `on*` functions become listeners, everything else an attribute. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** Creates an element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** Replaces the children of `parent`. */
export function fill(parent: Element, ...children: (Node | string | undefined | false)[]): void {
  parent.replaceChildren(...children.filter((child): child is Node | string => child !== undefined && child !== false));
}

/** JSON, indented, for a `<pre>`. */
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2) ?? String(value);

/** A `<pre>` of a value. */
export const pre = (value: unknown, attributes: Attributes = {}): HTMLPreElement =>
  h('pre', attributes, typeof value === 'string' ? value : pretty(value));

/** Says `text` to screen readers (and shows it in the status line). */
export function announce(text: string): void {
  const status = document.getElementById('status-line');
  if (status) status.textContent = text;
}
