export { mcpTracing, type McpTracingOptions } from './tracing.js';
export * from './metrics/index.js';
