/**
 * The shapes the client reads and writes, derived from the generated spec types of `@wiremcp/protocol`, never
 * re-declared. A result is the one a server of either era sends: the 2026-07-28 shape with the keys older
 * revisions lack (`resultType`, `ttlMs`, `cacheScope`) optional, and where a definition differs between
 * revisions (a tool's 2025-11-25 `execution`, the capabilities' `tasks` and `extensions`), both revisions'.
 */
import type {
  ClientNotificationMap,
  ClientRequestMap,
  ClientRequestMethod,
  CompleteResultOf,
  EraNeutralParams,
  InputParamsOf,
  InputRequestMethod,
  InputResultOf,
  JsonObject,
  ServerNotificationMap,
  ServerRequestMap,
  ServerStampedResultKey,
  Spec2025_11_25,
  Spec2026_07_28,
  WithOptionalKeys,
} from '@wiremcp/protocol';
import type { Peer } from '@wiremcp/jsonrpc';

export type {
  Annotations,
  BlobResourceContents,
  ContentBlock,
  Icon,
  Implementation,
  JsonObject,
  Prompt,
  PromptArgument,
  PromptMessage,
  Resource,
  ResourceTemplate,
  Root,
  SubscriptionFilter,
  TextResourceContents,
  ToolAnnotations,
} from '@wiremcp/protocol';

/** A client's peer: receives server requests (legacy) and notifications, sends client requests and notifications. */
export type ClientPeer = Peer<ServerRequestMap, ClientRequestMap, ServerNotificationMap, ClientNotificationMap>;

/** `_meta` of any message. */
export type Meta = JsonObject;

/** Capabilities a client declares, in the shape of its revision (2025-11-25 has `tasks`, 2026-07-28 `extensions`). */
export type ClientCapabilities = Spec2026_07_28.ClientCapabilities | Spec2025_11_25.ClientCapabilities;

/** Capabilities a server declares, in the shape of its revision. */
export type ServerCapabilities = Spec2026_07_28.ServerCapabilities | Spec2025_11_25.ServerCapabilities;

/** A tool as `tools/list` lists it: the 2026-07-28 shape, or the 2025-11-25 one (with `execution`). */
export type Tool = Spec2026_07_28.Tool | Spec2025_11_25.Tool;

/** What a request of `M` resolves with (input rounds resolved, so never an input-required result). */
export type ResultOf<M extends ClientRequestMethod> = CompleteResultOf<M>;

/**
 * Params of `client.request(method, …)`: for a method of the spec, its params with the reserved 2026-07-28 `_meta`
 * keys optional (the client adds them); for any other method, a JSON object.
 */
export type ClientRequestParams<M extends string> = M extends ClientRequestMethod ? EraNeutralParams<M> : JsonObject | undefined;

/** What `client.request(method, …)` resolves with: the complete result of a spec method, or a JSON object. */
export type ClientRequestResult<M extends string> = M extends ClientRequestMethod ? CompleteResultOf<M> : JsonObject;

/** The result of `initialize` (legacy). */
export type InitializeResult = CompleteResultOf<'initialize'>;
/** The result of `server/discover` (2026-07-28). */
export type DiscoverResult = CompleteResultOf<'server/discover'>;
/** The result of `tools/list`: tools of either revision. */
export type ListToolsResult = Omit<CompleteResultOf<'tools/list'>, 'tools'> & { tools: Tool[] };
/** The (complete) result of `tools/call`. */
export type CallToolResult = CompleteResultOf<'tools/call'>;
/** The result of `resources/list`. */
export type ListResourcesResult = CompleteResultOf<'resources/list'>;
/** The result of `resources/templates/list`. */
export type ListResourceTemplatesResult = CompleteResultOf<'resources/templates/list'>;
/** The (complete) result of `resources/read`. */
export type ReadResourceResult = CompleteResultOf<'resources/read'>;
/** The result of `prompts/list`. */
export type ListPromptsResult = CompleteResultOf<'prompts/list'>;
/** The (complete) result of `prompts/get`. */
export type GetPromptResult = CompleteResultOf<'prompts/get'>;
/** Params of `completion/complete`. */
export type CompleteParams = EraNeutralParams<'completion/complete'>;
/** The result of `completion/complete`. */
export type CompleteResult = CompleteResultOf<'completion/complete'>;
/** A paginated list result, as the list helpers read it. */
export type PaginatedResult = WithOptionalKeys<Spec2026_07_28.PaginatedResult, ServerStampedResultKey>;
/** Any result, as the client first reads it: `resultType` (2026-07-28; absent means complete), `_meta`, the rest. */
export type ResultBase = WithOptionalKeys<Spec2026_07_28.Result, 'resultType'>;

/** Params of the input request `M` a server makes (a legacy request, or a 2026-07-28 `inputRequests` entry). */
export type InputParams<M extends InputRequestMethod> = InputParamsOf<M>;
/** What an input handler answers for `M`. */
export type InputResult<M extends InputRequestMethod> = InputResultOf<M>;
/** Params of `sampling/createMessage`. */
export type CreateMessageParams = InputParamsOf<'sampling/createMessage'>;
/** What a sampling handler answers. */
export type CreateMessageResult = InputResultOf<'sampling/createMessage'>;
/** Params of `elicitation/create` (form mode, or URL mode from 2025-11-25). */
export type ElicitParams = InputParamsOf<'elicitation/create'>;
/** What an elicitation handler answers. */
export type ElicitResult = InputResultOf<'elicitation/create'>;
/** What a roots handler answers (`roots/list`). */
export type ListRootsResult = InputResultOf<'roots/list'>;
/** An input request inside a 2026-07-28 input-required result. */
export type InputRequest = Spec2026_07_28.InputRequest;
/** An answer to an input request. */
export type InputResponse = InputResultOf<InputRequestMethod>;

/** Params of a server notification the client knows by name (what `client.on(method, …)` delivers). */
export type { ServerNotificationMap };
/** A server notification method the client knows by name. */
export type ServerNotificationMethod = keyof ServerNotificationMap;
/** Params of `notifications/message`. */
export type LoggingMessageParams = ServerNotificationMap['notifications/message'];
/** Params of `notifications/progress`. */
export type ProgressParams = ServerNotificationMap['notifications/progress'];
/** Params of `notifications/resources/updated`. */
export type ResourceUpdatedParams = ServerNotificationMap['notifications/resources/updated'];
