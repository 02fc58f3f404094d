/**
 * Content blocks a legacy revision cannot carry. `audio` arrived in 2025-03-26 and `resource_link` in
 * 2025-06-18; an older client would receive a block its schema rejects, so such blocks are replaced by a text
 * block that says what was there (the link's URI stays usable). Everything else passes through untouched, and
 * results that need no change are returned as they are (no copy).
 */
import type { ContentBlock } from './types.js';

function replacement(block: ContentBlock, version: string): ContentBlock | undefined {
  if (block.type === 'audio' && version < '2025-03-26') {
    return { type: 'text', text: `[audio (${block.mimeType}) omitted: not supported by protocol version ${version}]` };
  }
  if (block.type === 'resource_link' && version < '2025-06-18') {
    const label = block.title ?? block.name;
    return { type: 'text', text: `Resource: ${label} <${block.uri}>${block.description ? ` — ${block.description}` : ''}` };
  }
  return undefined;
}

/** The blocks as the revision can carry them; the same array when nothing had to change. */
export function contentForRevision(blocks: ContentBlock[], version: string): ContentBlock[] {
  if (version >= '2025-06-18') return blocks;
  let out: ContentBlock[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const replaced = replacement(blocks[i]!, version);
    if (replaced) (out ??= blocks.slice())[i] = replaced;
  }
  return out ?? blocks;
}

/** A tool result or prompt result with its content adapted to `version` (the same object when unchanged). */
export function resultForRevision<T extends { content?: ContentBlock[]; messages?: Array<{ role: string; content: ContentBlock }> }>(
  result: T,
  version: string,
): T {
  if (version >= '2025-06-18' || typeof result !== 'object' || result === null) return result;
  if (Array.isArray(result.content)) {
    const content = contentForRevision(result.content, version);
    if (content !== result.content) return { ...result, content };
  }
  if (Array.isArray(result.messages)) {
    let changed = false;
    const messages = result.messages.map((message) => {
      const [block] = contentForRevision([message.content], version);
      if (block === message.content) return message;
      changed = true;
      return { ...message, content: block! };
    });
    if (changed) return { ...result, messages };
  }
  return result;
}
