/**
 * The authoring types of the server API: what a server author writes. Every one is derived from the generated
 * spec types of `@wiremcp/protocol` (the 2026-07-28 shapes, or the union of the two revisions where a field
 * differs), never re-declared: the keys the server adds itself (`resultType`, the caching hints `ttlMs` and
 * `cacheScope`, the `_meta` server info) are taken out, and the server adapts what is left to the revision a
 * request speaks.
 */
import type {
  Annotations,
  BlobResourceContents,
  CacheableResult,
  CallToolResult as WireCallToolResult,
  CompleteResult,
  ContentBlock,
  GetPromptResult as WireGetPromptResult,
  Icon,
  Implementation,
  InputParamsOf,
  InputResultOf,
  LogLevel,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult as WireReadResourceResult,
  Resource,
  ResourceTemplate,
  TextResourceContents,
  Tool,
  ToolAnnotations,
  WithOptionalKeys,
  WithoutKeys,
} from '@wiremcp/protocol';
import type { HandlerContext } from './handler-context.js';

/** Spec shapes used as they are (2026-07-28). */
export type {
  Annotations,
  BlobResourceContents,
  ContentBlock,
  Icon,
  Implementation,
  PromptArgument,
  PromptMessage,
  TextResourceContents,
  ToolAnnotations,
};

/** A tool as listed by `tools/list` (the spec's `Tool`). */
export type ToolDefinition = Tool;

/** A JSON Schema object, as a tool's `inputSchema` and `outputSchema` are (draft-07 or 2020-12). */
export type JsonSchema = NonNullable<Tool['outputSchema']>;

/**
 * What a tool handler returns: the spec's `CallToolResult` without `resultType`, and with `content` optional (a
 * result with only `structuredContent` gets a text block holding its JSON, as the spec asks).
 */
export type CallToolResult = WithOptionalKeys<WithoutKeys<WireCallToolResult, 'resultType'>, 'content'>;

/** A resource as listed by `resources/list` (the spec's `Resource`). */
export type ResourceDefinition = Resource;

/** A resource template as listed by `resources/templates/list` (the spec's `ResourceTemplate`). */
export type ResourceTemplateDefinition = ResourceTemplate;

/**
 * What a resource reader returns: the spec's `ReadResourceResult` without `resultType`. The caching hints `ttlMs`
 * and `cacheScope` are optional: a reader may give this one read its own hint (it wins over the resource's `cache`
 * option and the server's `caching` option). Hints are sent on 2026-07-28 results only; legacy sessions never see
 * them.
 */
export type ReadResourceResult = WithOptionalKeys<WithoutKeys<WireReadResourceResult, 'resultType'>, 'ttlMs' | 'cacheScope'>;

/** A prompt as listed by `prompts/list` (the spec's `Prompt`). */
export type PromptDefinition = Prompt;

/** What a prompt handler returns: the spec's `GetPromptResult` without `resultType`. */
export type GetPromptResult = WithoutKeys<WireGetPromptResult, 'resultType'>;

/** The caching hints of a cacheable 2026-07-28 result. */
export type CacheHint = Pick<CacheableResult, 'ttlMs' | 'cacheScope'>;

/** What `ctx.elicit` asks (form or URL mode; 2025-11-25 and 2026-07-28 shapes). */
export type ElicitParams = InputParamsOf<'elicitation/create'>;
/** The user's answer to `ctx.elicit`. */
export type ElicitResult = InputResultOf<'elicitation/create'>;
/** What `ctx.sample` asks the client's model. */
export type CreateMessageParams = InputParamsOf<'sampling/createMessage'>;
/** The model's answer to `ctx.sample`. */
export type CreateMessageResult = InputResultOf<'sampling/createMessage'>;
/** The client's answer to `ctx.listRoots`. */
export type ListRootsResult = InputResultOf<'roots/list'>;

/** The answer of a completion provider: candidate values (at most 100 are sent), or the spec's `completion` object. */
export type CompletionValues = string[] | CompleteResult['completion'];

/**
 * Context of a completion request: the request's own context (scope, signal, client capabilities, `listRoots` in a
 * legacy session — a 2026-07-28 `completion/complete` cannot ask for input) and the values of the other arguments,
 * when the client sent them.
 */
export interface CompletionContext extends HandlerContext {
  readonly arguments: Record<string, string>;
}

/** Suggests values for one argument or template variable. */
export type CompletionProvider = (value: string, context: CompletionContext) => CompletionValues | Promise<CompletionValues>;

/** The level threshold type re-exported for handler contexts. */
export type { LogLevel };
