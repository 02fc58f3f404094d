/**
 * The wire shapes the client reads and writes, written out locally.
 *
 * Why local: `@wiremcp/protocol` does not export its generated per-revision types from its entry point yet, and a
 * relative import into its sources would break this package's build (`rootDir`) and its published `.d.ts`. This is
 * the ONLY file that defines protocol shapes for the client, so switching to the package's types later is a change
 * here alone. The shapes follow the newest revision that has each definition (2026-07-28, else 2025-11-25), with
 * fields of older revisions kept optional, and they are structurally compatible with the generated ones.
 */
import type { Annotations, Icon, Implementation, LogLevel, RequestId } from '@wiremcp/protocol';

/** `Implementation`, `Icon` and `Annotations` are the spec's own shapes (2026-07-28). */
export type { Annotations, Icon, Implementation };

/** A JSON object with unknown values. */
export type JsonObject = { [key: string]: unknown };

/** `_meta` of any message. */
export type Meta = { [key: string]: unknown };

/** Capabilities a client declares (in `initialize`, or per request in 2026-07-28). */
export interface ClientCapabilities {
  experimental?: { [key: string]: JsonObject };
  roots?: { listChanged?: boolean; [key: string]: unknown };
  sampling?: { context?: JsonObject; tools?: JsonObject; [key: string]: unknown };
  elicitation?: { form?: JsonObject; url?: JsonObject; [key: string]: unknown };
  extensions?: { [key: string]: JsonObject };
  [key: string]: unknown;
}

/** Capabilities a server declares (in the initialize or discover result). */
export interface ServerCapabilities {
  experimental?: { [key: string]: JsonObject };
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: { [key: string]: JsonObject };
  [key: string]: unknown;
}

/** Fields every result may carry. `resultType` is 2026-07-28 (absent means `complete`). */
export interface ResultBase {
  _meta?: Meta;
  resultType?: string;
}

/** 2026-07-28 caching hints; present on complete results of cacheable methods of modern servers. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** A paginated list result. */
export interface PaginatedResult extends ResultBase, CacheHints {
  nextCursor?: string;
}

/** The result of `initialize` (legacy). */
export interface InitializeResult extends ResultBase {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** The result of `server/discover` (2026-07-28). */
export interface DiscoverResult extends ResultBase, CacheHints {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** Text contents of a resource. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

/** Binary contents of a resource (base64). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

/** A resource as listed by `resources/list`. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

/** One block of content in a tool result, prompt message or sampling message. */
export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Annotations; _meta?: Meta }
  | { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
  | { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
  | { type: 'resource'; resource: TextResourceContents | BlobResourceContents; annotations?: Annotations; _meta?: Meta }
  | ({ type: 'resource_link' } & Resource);

/** Behaviour hints of a tool (untrusted unless the server is trusted). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as listed by `tools/list`. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** 2025-11-25 only (moved to an extension in 2026-07-28). */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: Meta;
}

/** A resource template as listed by `resources/templates/list`. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

/** One argument of a prompt. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed by `prompts/list`. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

/** The result of `tools/list`. */
export interface ListToolsResult extends PaginatedResult {
  tools: Tool[];
}

/** The result of `resources/list`. */
export interface ListResourcesResult extends PaginatedResult {
  resources: Resource[];
}

/** The result of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends PaginatedResult {
  resourceTemplates: ResourceTemplate[];
}

/** The result of `prompts/list`. */
export interface ListPromptsResult extends PaginatedResult {
  prompts: Prompt[];
}

/** The (complete) result of `tools/call`. */
export interface CallToolResult extends ResultBase {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** The (complete) result of `resources/read`. */
export interface ReadResourceResult extends ResultBase, CacheHints {
  contents: Array<TextResourceContents | BlobResourceContents>;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** The (complete) result of `prompts/get`. */
export interface GetPromptResult extends ResultBase {
  description?: string;
  messages: PromptMessage[];
}

/** What `completion/complete` completes: a prompt argument or a resource template variable. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Params of `completion/complete`. */
export interface CompleteParams {
  ref: CompletionReference;
  argument: { name: string; value: string };
  /** 2025-06-18+: values of the other arguments. */
  context?: { arguments?: { [name: string]: string } };
}

/** The result of `completion/complete`. */
export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** A root the client exposes to the server. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

/** What a roots handler answers (`roots/list`). */
export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}

/** One message of a sampling conversation. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  _meta?: Meta;
}

/** Params of `sampling/createMessage`. */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  modelPreferences?: {
    hints?: Array<{ name?: string }>;
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
  _meta?: Meta;
  [key: string]: unknown;
}

/** What a sampling handler answers. */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
}

/** Params of `elicitation/create` (form mode, the default, or URL mode from 2025-11-25). */
export interface ElicitParams {
  message: string;
  mode?: 'form' | 'url';
  /** Form mode: a flat object schema of primitives. */
  requestedSchema?: JsonObject;
  /** URL mode: the page to send the user to. */
  url?: string;
  /** 2025-11-25 URL mode only (removed in 2026-07-28). */
  elicitationId?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** What an elicitation handler answers. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: Meta;
}

/** An input request inside an input-required result (2026-07-28 MRTR). */
export type InputRequest =
  | { method: 'sampling/createMessage'; params: CreateMessageParams }
  | { method: 'elicitation/create'; params: ElicitParams }
  | { method: 'roots/list'; params?: JsonObject };

/** An answer to an input request. */
export type InputResponse = CreateMessageResult | ElicitResult | ListRootsResult;

/** An input-required result (2026-07-28): inputs to gather and/or opaque state to echo on the retry. */
export interface InputRequiredResult extends ResultBase {
  resultType: 'input_required';
  inputRequests?: { [key: string]: InputRequest };
  requestState?: string;
}

/** What a `subscriptions/listen` request asks for (2026-07-28). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Params of `notifications/message`. */
export interface LoggingMessageParams {
  level: LogLevel;
  logger?: string;
  data: unknown;
  _meta?: Meta;
}

/** Params of `notifications/progress`. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
  _meta?: Meta;
}

/** Params of `notifications/cancelled`. */
export interface CancelledParams {
  requestId?: RequestId;
  reason?: string;
  _meta?: Meta;
}

/** Params of a list-changed notification. */
export interface ListChangedParams {
  _meta?: Meta;
}

/** Params of `notifications/resources/updated`. */
export interface ResourceUpdatedParams {
  uri: string;
  _meta?: Meta;
}

/** Notifications a server sends, by method: what `client.on(method, …)` delivers. */
export interface ServerNotificationMap {
  'notifications/tools/list_changed': ListChangedParams;
  'notifications/prompts/list_changed': ListChangedParams;
  'notifications/resources/list_changed': ListChangedParams;
  'notifications/resources/updated': ResourceUpdatedParams;
  'notifications/message': LoggingMessageParams;
  'notifications/progress': ProgressParams;
  'notifications/cancelled': CancelledParams;
  /** 2025-11-25 URL-mode elicitation. */
  'notifications/elicitation/complete': { elicitationId: string; _meta?: Meta };
  /** 2025-11-25 tasks. */
  'notifications/tasks/status': JsonObject;
  /** 2026-07-28: the acknowledgement of a listen stream. */
  'notifications/subscriptions/acknowledged': { notifications: SubscriptionFilter; _meta?: Meta };
}

/** A server notification method the client knows by name. */
export type ServerNotificationMethod = keyof ServerNotificationMap;
