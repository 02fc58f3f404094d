// @wiremcp/transport-stdio: MCP over stdio. The server side reads and writes injected streams; the client
// side spawns the server as a child process and runs the spec's shutdown sequence.
export { StdioServerTransport, type StdioServerTransportOptions } from './stdio-server-transport.js';
export { createProcessStdioTransport, type ProcessStdioTransportOptions } from './process-stdio-transport.js';
export { StdioClientTransport, DEFAULT_SHUTDOWN_TIMEOUT_MS, type StdioClientTransportOptions } from './stdio-client-transport.js';
export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment, buildChildEnvironment } from './child-environment.js';
export { formatCommand, type ServerExitDetails } from './server-exit-error.js';
export {
  parseStdioServerArgs,
  serveProcessStdio,
  type ParsedServerArgs,
  type ServerFlags,
  type StdioServable,
  type StdioServerFraming,
} from './stdio-server-cli.js';
