/**
 * Reading what a client answered to sampling, elicitation and roots requests. The answers come from the
 * client, so they are checked rather than trusted: a malformed one becomes a readable tool error.
 */
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@wiremcp/server';

/** The text of a `sampling/createMessage` result (content may be one block or, since 2025-11-25, an array). */
export function sampledText(result: CreateMessageResult): string {
  const content = result.content;
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks
    .filter((block): block is { type: 'text'; text: string } => {
      const b = block as { type?: unknown; text?: unknown } | null;
      return typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string';
    })
    .map((block) => block.text);
  if (texts.length === 0) throw new Error('The client answered the sampling request without any text content');
  return texts.join('\n');
}

/** `action=<action>, content=<json>` for an `elicitation/create` result. */
export function describeElicitation(result: ElicitResult): string {
  const action: unknown = result.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new Error(`The client answered the elicitation with an invalid action ${JSON.stringify(action)}`);
  }
  return `action=${action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** A string field of an accepted elicitation, or `undefined` (declined, cancelled, missing or not a string). */
export function acceptedField(result: ElicitResult, field: string): string | undefined {
  if (result.action !== 'accept') return undefined;
  const content: Record<string, unknown> | undefined = result.content;
  const value = content?.[field];
  return typeof value === 'string' ? value : value === undefined ? undefined : JSON.stringify(value);
}

/** The roots of a `roots/list` result. */
export function rootsOf(result: ListRootsResult): Array<{ uri: string; name?: string }> {
  const roots: unknown = result.roots;
  if (!Array.isArray(roots)) throw new Error('The client answered roots/list without a roots array');
  return roots
    .filter((root): root is { uri: string; name?: unknown } => typeof (root as { uri?: unknown } | null)?.uri === 'string')
    .map((root) => (typeof root.name === 'string' ? { uri: root.uri, name: root.name } : { uri: root.uri }));
}

/** One line per root: `uri (name)`. */
export function describeRoots(roots: ReadonlyArray<{ uri: string; name?: string }>): string {
  if (roots.length === 0) return 'The client has no roots';
  return roots.map((root) => (root.name ? `${root.uri} (${root.name})` : root.uri)).join('\n');
}
