export { McpServer, type ConnectOptions } from './mcp-server.js';
export type { ServerOptions, PagedList, CustomRequestHandler, RequestHandlerParams, RequestHandlerResult } from './server-options.js';
export type { DispatchExchange } from './dispatch.js';
export type { Middleware, MiddlewareContext, MiddlewareNext } from './middleware.js';
export { rateLimit, RateLimitedError, type RateLimitOptions, type RateLimitKey, type RateLimitedData } from './rate-limit.js';
export { parseRateLimits, RATE_LIMIT_EXAMPLES, type RateLimitRule } from './rate-limit-rules.js';
export {
  MemoryBucketStore,
  boundedKey,
  type BucketStore,
  type BucketRate,
  type TakeResult,
  type MemoryBucketStoreOptions,
} from './token-buckets.js';
export type { ServerConnection } from './server-connection.js';
export type { LegacySession, LegacySessionRestore } from './legacy-session.js';
export type { ServerPeer, ServerRequestContext } from './server-peer.js';
export { InputRequiredError, type HandlerContext, type RequestScope, type InputOptions, type TaskInfo } from './handler-context.js';
export type { RequestedInput } from './input-round.js';
export type { RegisteredTool } from './tool-registry.js';
export type {
  ToolHandler,
  ToolConfig,
  ToolExecution,
  ToolArgs,
  ToolStructured,
  ToolResultOf,
  TypedCallToolResult,
  ObjectSchemaLiteral,
  ArgsCheck,
  ParamCheck,
  DeepReadonly,
} from './typed-tool.js';
export type { PromptConfig, PromptArgs } from './typed-prompt.js';
export type { TemplateConfig, TemplateVariablesOf, TemplateReaderVariables, TemplateSchemaOption } from './typed-template.js';
export {
  isStandardSchema,
  type FromJsonSchema,
  type JsonSchemaLiteral,
  type JsonSchemaConverter,
  type StandardSchemaV1,
  type TypedSchema,
  type SchemaInput,
  type SchemaOutput,
} from '@wiremcp/json-schema';
export {
  ResourceNotFoundError,
  type ResourceReader,
  type ResourceOptions,
  type ResourceChanges,
  type ResourceListOrder,
  type TemplateReader,
  type TemplateVariables,
  type TemplateLister,
  type TemplateOptions,
  type TemplateChanges,
  type RegisteredResource,
  type RegisteredResourceTemplate,
} from './resource-registry.js';
export type { SubscriptionHooks } from './subscription-hooks.js';
export type { ServerEvent, ServerEventRelay } from './server-events.js';
export type { PromptHandler, PromptOptions, RegisteredPrompt } from './prompt-registry.js';
export type { CapabilityOptions } from './capabilities.js';
export { UriTemplate, UriTemplateError, isUriTemplate, type TemplateValues } from './uri-template.js';
export { RequestStateSigner, type RequestStateOptions } from './request-state.js';
export {
  TaskCursorError,
  TaskStoreFullError,
  TERMINAL_STATUSES,
  type TaskError,
  type TaskInputRequest,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from './task-store.js';
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './memory-task-store.js';
export type { TaskOptions } from './task-manager.js';
export type { TaskOrigin } from './task-service.js';
export { TASKS_EXTENSION } from './task-wire.js';
export type { CacheableMethod } from '@wiremcp/protocol';
export type * from './types.js';
