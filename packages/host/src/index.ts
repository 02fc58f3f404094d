/**
 * `@wiremcp/host`: the MCP host role — one host, many servers, from the configuration files people already have.
 * Load a configuration (`loadConfig`), start an `McpHost`, use its catalogue, call tools by namespaced name; the
 * `./llm` entry turns the catalogue into tool declarations for the common LLM APIs.
 */
export * from './config/index.js';
export * from './catalogue/index.js';
export * from './host/index.js';
