/**
 * `@wiremcp/auth/node`: helpers that need Node: a file-backed token store for CLIs, the interactive loopback
 * redirect listener that opens the browser, and DNS resolution for the fetch policy's private-address refusal.
 */
export { FileAuthStore, MAX_STORE_FILE_BYTES } from './file-store.js';
export { startLoopbackUserAgent, type LoopbackUserAgent, type LoopbackUserAgentOptions } from './loopback-user-agent.js';
export { openBrowser } from './open-browser.js';
export { nodeResolveHost } from './resolve-host.js';
