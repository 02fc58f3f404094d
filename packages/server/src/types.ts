/**
 * The authoring types of the server API: what a server author writes. They follow the MCP schemas (the union of
 * every revision's fields); the server adapts them to the revision a request speaks (`resultType`, `_meta`,
 * caching hints are added by the server, never written by the author).
 */
import type { Annotations, Icon, Implementation, LogLevel, ToolAnnotations } from '@wiremcp/protocol';

/** `Implementation`, `Icon`, `Annotations` and `ToolAnnotations` are the spec's own shapes (2026-07-28). */
export type { Annotations, Icon, Implementation, ToolAnnotations };

/** A JSON Schema object (draft-07 or 2020-12). */
export type JsonSchema = { [key: string]: unknown };

/** Text contents of a resource. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** Binary contents of a resource (base64). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Record<string, unknown>;
}

/** One block of content in a tool result or prompt message. */
export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Annotations; _meta?: Record<string, unknown> }
  | { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }
  | { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }
  | { type: 'resource'; resource: TextResourceContents | BlobResourceContents; annotations?: Annotations; _meta?: Record<string, unknown> }
  | ({ type: 'resource_link' } & ResourceDefinition);

/** A tool as listed by `tools/list`. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** What a tool handler returns. */
export interface CallToolResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A resource as listed by `resources/list`. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A resource template as listed by `resources/templates/list`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** What a resource reader returns. */
export interface ReadResourceResult {
  contents: Array<TextResourceContents | BlobResourceContents>;
  _meta?: Record<string, unknown>;
}

/** One argument of a prompt. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed by `prompts/list`. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** What a prompt handler returns. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}

/** The answer of a completion provider: candidate values (at most 100 are sent). */
export type CompletionValues = string[] | { values: string[]; total?: number; hasMore?: boolean };

/** Context of a completion request: the values of the other arguments, when the client sent them. */
export interface CompletionContext {
  arguments: Record<string, string>;
}

/** Suggests values for one argument or template variable. */
export type CompletionProvider = (value: string, context: CompletionContext) => CompletionValues | Promise<CompletionValues>;

/** Caching hints of a cacheable 2026-07-28 result. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** The level threshold type re-exported for handler contexts. */
export type { LogLevel };
