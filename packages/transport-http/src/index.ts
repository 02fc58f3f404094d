/**
 * `@wiremcp/transport-http`: MCP over HTTP, web-standard (`Request` → `Promise<Response>`, streams, `fetch`).
 * The server half serves every revision on one endpoint; the client half detects the era and falls back to the
 * legacy transports. Node's `node:http`/`node:http2` servers are adapted on the `./node` subpath.
 */
export * from './server/index.js';
export * from './client/index.js';
export * from './sse/index.js';
