/**
 * The human output of each command: short, aligned, coloured on a terminal. (`--json` prints the results as
 * JSON instead; see `operations.ts`.)
 */
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from '@wiremcp/client';
import type { Style } from './style.js';

/** Everything `wiremcp list` found on a server. */
export interface Listing {
  readonly server: { readonly name?: string; readonly version?: string } | undefined;
  readonly era: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly instructions?: string;
  readonly tools?: readonly Tool[];
  readonly resources?: readonly Resource[];
  readonly resourceTemplates?: readonly ResourceTemplate[];
  readonly prompts?: readonly Prompt[];
}

/** The first line of a description, cut to `max` characters: the full text is in `--json`. */
function firstLine(text: string | undefined, max = 100): string {
  const line = (text ?? '').split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function parametersOf(tool: Tool): string {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: readonly string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => `${name}${required.has(name) ? '' : '?'}${typeof property?.type === 'string' ? `: ${property.type}` : ''}`)
    .join(', ');
}

function section<T>(style: Style, title: string, items: readonly T[] | undefined, line: (item: T) => string): string[] {
  if (items === undefined) return [];
  const lines = [style.bold(`${title} (${items.length})`)];
  for (const item of items) lines.push(`  ${line(item)}`);
  return lines;
}

/** `wiremcp list`: the server, then its tools, resources, templates and prompts. */
export function renderListing(listing: Listing, style: Style): string {
  const server = listing.server ? `${listing.server.name ?? '?'} ${listing.server.version ?? ''}`.trim() : 'unknown server';
  const lines = [`${style.bold(server)} ${style.dim(`· ${listing.era ?? '?'} era · ${listing.protocolVersion ?? '?'}`)}`];
  if (listing.instructions) lines.push(style.dim(firstLine(listing.instructions)));
  const describe = (name: string, detail: string, description: string | undefined): string =>
    `${style.green(name)}${detail ? style.dim(`(${detail})`) : ''}${description ? `  ${firstLine(description)}` : ''}`;
  lines.push(
    ...section(style, 'tools', listing.tools, (tool) => describe(tool.name, parametersOf(tool), tool.description)),
    ...section(
      style,
      'resources',
      listing.resources,
      (r) => `${style.cyan(r.uri)}  ${r.name}${r.mimeType ? style.dim(` ${r.mimeType}`) : ''}`,
    ),
    ...section(style, 'resource templates', listing.resourceTemplates, (t) => `${style.cyan(t.uriTemplate)}  ${t.name}`),
    ...section(style, 'prompts', listing.prompts, (p) =>
      describe(p.name, (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', '), p.description),
    ),
  );
  return `${lines.join('\n')}\n`;
}

type ContentItem = CallToolResult['content'][number];

function renderContent(item: ContentItem, style: Style): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return style.dim(`[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes]`);
    case 'resource_link':
      return `${style.dim('[resource link]')} ${style.cyan(item.uri)}`;
    case 'resource': {
      const resource = item.resource;
      return `${style.dim('[resource]')} ${style.cyan(resource.uri)}\n${'text' in resource ? resource.text : style.dim('[binary]')}`;
    }
    default:
      return JSON.stringify(item);
  }
}

/** `wiremcp call`: the content, then the structured content; an error result is marked. */
export function renderToolResult(result: CallToolResult, style: Style): string {
  const lines: string[] = [];
  if (result.isError) lines.push(style.red(style.bold('tool error')));
  for (const item of result.content ?? []) lines.push(renderContent(item, style));
  if (result.structuredContent !== undefined)
    lines.push(style.dim('structured content:'), JSON.stringify(result.structuredContent, null, 2));
  return `${lines.join('\n')}\n`;
}

/** `wiremcp read`: each content's URI, then its text (or the size of a blob). */
export function renderResource(result: ReadResourceResult, style: Style): string {
  const lines: string[] = [];
  for (const content of result.contents) {
    lines.push(style.dim(`${content.uri}${content.mimeType ? ` · ${content.mimeType}` : ''}`));
    lines.push('text' in content ? content.text : style.dim(`[blob, ${Math.floor((content.blob.length * 3) / 4)} bytes]`));
  }
  return `${lines.join('\n')}\n`;
}

/** `wiremcp prompt`: the description, then each message with its role. */
export function renderPrompt(result: GetPromptResult, style: Style): string {
  const lines: string[] = [];
  if (result.description) lines.push(style.dim(result.description));
  for (const message of result.messages)
    lines.push(`${style.bold(`${message.role}:`)} ${renderContent(message.content as ContentItem, style)}`);
  return `${lines.join('\n')}\n`;
}
