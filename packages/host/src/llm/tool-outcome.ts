/**
 * What a routed tool call ended with, in the pieces every LLM API's tool-result shape is made of: texts, images, an
 * error flag. Both error shapes become an error the model can read: a result with `isError: true` (the tool failed;
 * its content is the explanation) and a thrown error (a JSON-RPC error from the server, a failure on this side, a
 * refused consent, an unknown tool).
 */
import type { CallToolResult } from '@wiremcp/client';
import { isLocalError, RpcError } from '@wiremcp/protocol';
import { isHostError } from '../host/host-error.js';

/** The end of one tool call: its result, or the error it failed with. */
export type ToolOutcome = { readonly result: CallToolResult } | { readonly error: unknown };

/** An image to hand to the model. */
export interface OutcomeImage {
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
}

/** One piece of a result, in order. */
export type OutcomePart = { readonly type: 'text'; readonly text: string } | ({ readonly type: 'image' } & OutcomeImage);

/** An outcome, rendered. */
export interface RenderedOutcome {
  readonly isError: boolean;
  readonly parts: readonly OutcomePart[];
  /** The result's `structuredContent`, when it has one. */
  readonly structured?: unknown;
}

function bytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

type ContentItem = CallToolResult['content'][number];

function partOf(item: ContentItem): OutcomePart {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'image':
      return { type: 'image', mimeType: item.mimeType, data: item.data };
    case 'audio':
      return { type: 'text', text: `[audio ${item.mimeType}, ${bytes(item.data)} bytes, not shown]` };
    case 'resource_link':
      return {
        type: 'text',
        text: `[resource ${item.uri}${item.name ? ` "${item.name}"` : ''}${item.mimeType ? ` ${item.mimeType}` : ''}]`,
      };
    case 'resource': {
      const resource = item.resource;
      if ('text' in resource) return { type: 'text', text: `[resource ${resource.uri}]\n${resource.text}` };
      return {
        type: 'text',
        text: `[resource ${resource.uri}${resource.mimeType ? ` ${resource.mimeType}` : ''}, ${bytes(resource.blob)} bytes, not shown]`,
      };
    }
    default:
      return { type: 'text', text: JSON.stringify(item) };
  }
}

/** The text a model reads for an error thrown by a call. */
export function errorText(error: unknown): string {
  if (error instanceof RpcError) return `Error ${error.code}: ${error.message}`;
  if (isHostError(error, 'CONSENT_DENIED')) return `The user did not allow this tool call (${error.message}).`;
  if (isHostError(error) || isLocalError(error)) return `Error (${error.code}): ${error.message}`;
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Renders an outcome; a result with no content but `structuredContent` gets it as JSON text. */
export function renderOutcome(outcome: ToolOutcome): RenderedOutcome {
  if ('error' in outcome) return { isError: true, parts: [{ type: 'text', text: errorText(outcome.error) }] };
  const result = outcome.result;
  const parts = (result.content ?? []).map(partOf);
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  return {
    isError: result.isError === true,
    parts,
    ...(result.structuredContent === undefined ? {} : { structured: result.structuredContent }),
  };
}

/** The texts of an outcome joined (images described), for APIs whose tool results are text only. */
export function outcomeText(rendered: RenderedOutcome): string {
  return rendered.parts
    .map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}, ${bytes(part.data)} bytes, not shown]`))
    .join('\n');
}
