// @wiremcp/transport-stdio: MCP over stdio. The server side reads and writes injected streams; the client
// side spawns the server as a child process and stops it with the spec's shutdown sequence.
export { StdioServerTransport, type StdioServerTransportOptions } from './stdio-server-transport.js';
export { createProcessStdioTransport, type ProcessStdioTransportOptions } from './process-stdio-transport.js';
export { StdioClientTransport, DEFAULT_SHUTDOWN_TIMEOUT_MS, type StdioClientTransportOptions } from './stdio-client-transport.js';
export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment, buildChildEnvironment } from './child-environment.js';
export { formatCommand, type ServerExitDetails } from './server-exit-error.js';
export {
  stopChildProcess,
  signalProcessGroup,
  waitForExit,
  DEFAULT_STOP_GRACE_MS,
  type StopChildProcessOptions,
  type StopChildProcessResult,
} from './stop-child-process.js';
