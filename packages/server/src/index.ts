export { McpServer, type ServerOptions, type CustomRequestHandler, type CacheableMethod } from './server-core.js';
export { ServerConnection, type LegacySession } from './connection.js';
export { HandlerContext, InputRequiredError, type RequestScope, type InputRequest, type InputOptions } from './handler-context.js';
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
export type * from './types.js';
