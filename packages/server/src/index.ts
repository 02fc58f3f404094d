export { McpServer, type ConnectOptions } from './mcp-server.js';
export type { ServerOptions, CustomRequestHandler, RequestHandlerParams, RequestHandlerResult } from './server-options.js';
export type { DispatchExchange } from './dispatch.js';
export type { ServerConnection } from './server-connection.js';
export type { LegacySession, LegacySessionRestore } from './legacy-session.js';
export type { ServerPeer, ServerRequestContext } from './server-peer.js';
export { InputRequiredError, type HandlerContext, type RequestScope, type InputOptions } from './handler-context.js';
export type { RequestedInput } from './input-round.js';
export type { ToolHandler, RegisteredTool } from './tool-registry.js';
export {
  ResourceNotFoundError,
  type ResourceReader,
  type TemplateReader,
  type TemplateOptions,
  type RegisteredResource,
} from './resource-registry.js';
export type { PromptHandler, PromptOptions, RegisteredPrompt } from './prompt-registry.js';
export type { CapabilityOptions } from './capabilities.js';
export { UriTemplate, UriTemplateError, isUriTemplate, type TemplateValues } from './uri-template.js';
export { RequestStateSigner, type RequestStateOptions } from './request-state.js';
export type { CacheableMethod } from '@wiremcp/protocol';
export type * from './types.js';
