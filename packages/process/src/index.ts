// @wiremcp/process: the Node process side of MCP, shared by servers, apps and tests. A server's main (flags,
// help, version, signals, exit codes) and the helpers that stop child processes. Node only.
export {
  runServerMain,
  DEFAULT_MAIN_SHUTDOWN_TIMEOUT_MS,
  EXIT_CODES,
  type ServerMainOptions,
  type ServerMainContext,
} from './run-server-main.js';
export { parseServerArgs, formatUsage, type ServerArgsSpec, type ParsedServerArgs } from './parse-server-args.js';
export { UsageError, type ServerFlags, type FlagValues } from './server-flags.js';
export type { Servable, Serving, ServeTarget } from './serve-mode.js';
export { nodeProcess, type MainProcess, type ShutdownSignal } from './main-process.js';
export { ChildProcessSet } from './child-process-set.js';
export { packageVersion } from './package-version.js';
export { startTracing, type ServerTracing } from './otel-flag.js';
// The stop sequence is the stdio transport's own (its client transport runs it on close); it is re-exported
// here so that programs find every process helper in one place.
export {
  stopChildProcess,
  signalProcessGroup,
  waitForExit,
  DEFAULT_STOP_GRACE_MS,
  type StopChildProcessOptions,
  type StopChildProcessResult,
} from '@wiremcp/transport-stdio';
